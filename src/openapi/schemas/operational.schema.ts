// Liveness and readiness (src/health/health.controller.ts), for orchestrators.
import { JsonSchema, boolean, constant, integer, object, oneOfValues, orNull, string } from '../json-schema';

const PROJECTIONS_DETAILS = object(
  {
    startedUp: boolean(),
    stuck: { type: 'object', additionalProperties: string(), description: 'Projections failing to apply for longer than 10 s, with the time they started failing.' },
    parked: { type: 'object', additionalProperties: integer(1), description: 'Unacknowledged parked events per projection (docs/projections.md).' },
    catchingUp: object(
      { applied: integer(0), head: orNull(string()), position: orNull(string()) },
      { description: 'Only while the start-up catch-up runs: events applied so far, the store position it catches up to (head at start), and the position reached (docs/projections.md, "Start-up").' },
    ),
  },
  { optional: ['catchingUp'], description: 'The projection hub: start-up catch-up done (and its progress while it runs), stuck projections, parked events.' },
);

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
    details: object({ projections: PROJECTIONS_DETAILS }, { optional: 'all', additional: true, description: 'What background services report beside their check.' }),
    kafka_relay: { type: 'object', description: 'The Kafka relay\'s lag (counted in the background up to 10,000 events; lagMeasuredAt says when) and parked events, when KAFKA_BROKERS is set.' },
  }, { optional: ['kafka_relay'] }),
};
