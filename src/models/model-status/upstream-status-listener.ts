// What an upstream's answers say about its model's status: a 503 with Retry-After is a cold start,
// and any answer from a model believed cold shows it warm again (docs/model-status.md).
import type { ColdStartListener } from '../../upstream/upstream.client';
import type { ModelStatusService } from './model-status.service';

export function upstreamStatusListener(modelStatus: ModelStatusService): ColdStartListener {
  return {
    upstreamCold: (model) => void modelStatus.observe(model, 'cold', 'upstream answered 503 with Retry-After'),
    upstreamAnswered: (model) => {
      if (modelStatus.isCold(model.id)) void modelStatus.observe(model, 'warm', 'upstream answered a request');
    },
  };
}
