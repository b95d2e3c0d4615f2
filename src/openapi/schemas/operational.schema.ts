// Liveness and readiness (src/health/health.controller.ts), for orchestrators.
import { JsonSchema, boolean, constant, integer, object, oneOfValues } from '../json-schema';

export const OPERATIONAL_SCHEMAS: Record<string, JsonSchema> = {
  Liveness: object({ status: constant('ok') }),
  Readiness: object({
    status: oneOfValues(['ready', 'not_ready']),
    checks: {
      type: 'object',
      additionalProperties: boolean(),
      description: 'Each dependency (catalog, event_store, background services) and whether it is ready.',
    },
    spool: object(
      {
        spooled: integer(0),
        drained: integer(0),
        pending: integer(0),
        used_bytes: integer(0),
        capacity_bytes: integer(0),
        full: boolean(),
      },
      { description: 'Billing records delivered while the event store could not write: spooled and drained by this process, pending in the spool file (docs/metering.md, "Spool").' },
    ),
  }),
};
