// Command line of `npm run reconcile`; parsing is pure so it is unit tested.
import { parseArgs } from 'node:util';
import { BigDecimal } from '../../common/big-decimal';
import type { DayWindow } from '../reconcile/cost-totals';

/** Whole micros: the cost API's numbers are micros divided by a million, so one micro of slack is enough. */
export const DEFAULT_USD_TOLERANCE = '0.000001';

export const USAGE = `usage: npm run reconcile -- --from <YYYY-MM-DD | ISO timestamp | earliest> [--until <YYYY-MM-DD>]
       [--gateway-url <url> --api-key <key> [--organization <id>] [--usd-tolerance <usd>]]
Environment: KAFKA_BROKERS (+ KAFKA_CLIENT_ID, KAFKA_SSL, KAFKA_SASL_*, KAFKA_TOPIC_PREFIX), and the event store as for the
gateway: GATEWAY_DATA_DIR (SQLite), GATEWAY_POSTGRES_URL or EVENTSTORE_CONNECTION_STRING.`;

export interface ReconcileArgs {
  window: DayWindow;
  gateway: { baseUrl: string; apiKey: string; organizationId: string | null; toleranceUsd: BigDecimal } | null;
}

export class UsageError extends Error {}

/** A timestamp inside a day means that whole UTC day: totals are per day on every side. */
function toDay(option: string, value: string): string {
  const time = Date.parse(/^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T00:00:00Z` : value);
  if (Number.isNaN(time)) throw new UsageError(`--${option} must be a date or ISO timestamp, got "${value}"`);
  return new Date(time).toISOString().slice(0, 10);
}

function parseTolerance(value: string | undefined): BigDecimal {
  try {
    const tolerance = BigDecimal.parseScientific(value ?? DEFAULT_USD_TOLERANCE);
    if (tolerance.isNegative()) throw new Error('negative');
    return tolerance;
  } catch {
    throw new UsageError(`--usd-tolerance must be a non-negative number of USD, got "${value}"`);
  }
}

export function parseReconcileArgs(argv: string[]): ReconcileArgs {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    options: {
      from: { type: 'string' },
      until: { type: 'string' },
      'gateway-url': { type: 'string' },
      'api-key': { type: 'string' },
      organization: { type: 'string' },
      'usd-tolerance': { type: 'string' },
    },
  });
  if (!values.from) throw new UsageError('--from is required');
  const window: DayWindow = {
    fromDay: values.from === 'earliest' ? null : toDay('from', values.from),
    untilDay: values.until ? toDay('until', values.until) : null,
  };
  const baseUrl = values['gateway-url'];
  const apiKey = values['api-key'];
  if (Boolean(baseUrl) !== Boolean(apiKey)) throw new UsageError('--gateway-url and --api-key go together');
  const gateway =
    baseUrl && apiKey
      ? { baseUrl, apiKey, organizationId: values.organization ?? null, toleranceUsd: parseTolerance(values['usd-tolerance']) }
      : null;
  return { window, gateway };
}
