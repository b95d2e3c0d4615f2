// Usage as billing makes it from a measurement (meter() on the fixture model), for the client-usage specs.
import { fixtureModel } from './catalog-model.fixture';
import type { Measurement, UpstreamReport } from '../../src/billing/metering/measurement';
import { meter } from '../../src/billing/metering/meter';
import type { Usage } from '../../src/billing/usage';

const model = fixtureModel();

export function billed(measurement: Measurement, cost: number | null = 7) {
  const metered = meter(model, measurement);
  const usage: Usage = { input: metered.input, output: metered.output, cost_usd_micros: cost };
  return { usage, audioTokens: metered.audioTokens };
}

export const reported = (upstream: UpstreamReport, input: Measurement['input'] = {}, output: Measurement['output'] = {}): Measurement => ({ upstream, input, output });
