// Liveness and readiness (src/health/health.controller.ts), for orchestrators.
import { JsonSchema, boolean, constant, object, oneOfValues } from '../json-schema';

export const OPERATIONAL_SCHEMAS: Record<string, JsonSchema> = {
  Liveness: object({ status: constant('ok') }),
  Readiness: object({
    status: oneOfValues(['ready', 'not_ready']),
    checks: {
      type: 'object',
      additionalProperties: boolean(),
      description: 'Each dependency (catalog, event_store, background services) and whether it is ready.',
    },
  }),
};
