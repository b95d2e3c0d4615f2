// The ledger check's part for routing (`npm run ledger:check`, docs/routing.md): replayed over the whole
// store, it checks that every charged request whose attempts were recorded has exactly one of them
// served and carrying the cost of goods, that no failed attempt carries one, and that every
// UpstreamAttemptRecorded is well formed; and it totals revenue, cost of goods and margin. A charge and
// its attempts are one append, so they are contiguous in the store: a request is judged when the next
// request's events begin, and nothing per request is kept beyond that.
import { comparePositions, type EventStore, type RecordedEvent } from '../event-store/event-store.port';

export interface AttemptProblem {
  requestId: string;
  reason: string;
}

interface Pending {
  requestId: string;
  charged: boolean;
  revenue: bigint;
  attempts: { outcome: string; cost: bigint | null; malformed: string | null }[];
}

export class AttemptLedger {
  readonly problems: AttemptProblem[] = [];
  attemptEvents = 0;
  chargedWithAttempts = 0;
  costedRevenueUsdMicros = 0n;
  costOfGoodsUsdMicros = 0n;
  unknownCostRequests = 0;
  private pending: Pending | null = null;

  add(event: RecordedEvent): void {
    if (event.type !== 'CostPriced' && event.type !== 'UpstreamAttemptRecorded') return;
    const data = (event.data ?? {}) as Record<string, unknown>;
    const requestId = String(data.requestId);
    if (this.pending?.requestId !== requestId) {
      this.settle();
      this.pending = { requestId, charged: false, revenue: 0n, attempts: [] };
    }
    if (event.type === 'CostPriced') {
      this.pending.charged = true;
      this.pending.revenue = typeof data.costUsdMicros === 'number' ? BigInt(data.costUsdMicros) : 0n;
      return;
    }
    this.attemptEvents += 1;
    this.pending.attempts.push(attemptOf(data));
  }

  /** Call once after the last event. */
  finish(): this {
    this.settle();
    return this;
  }

  private settle(): void {
    const request = this.pending;
    this.pending = null;
    if (request === null || request.attempts.length === 0) return;
    const problem = (reason: string) => this.problems.push({ requestId: request.requestId, reason });
    request.attempts.filter((a) => a.malformed !== null).forEach((a) => problem(`malformed UpstreamAttemptRecorded: ${a.malformed}`));
    if (request.attempts.some((a) => a.outcome !== 'served' && a.cost !== null)) problem('a failed attempt carries a cost of goods');
    const served = request.attempts.filter((a) => a.outcome === 'served');
    if (!request.charged) return;
    this.chargedWithAttempts += 1;
    if (served.length === 0) return void problem('charged, but none of its recorded attempts served it');
    const costed = served.filter((a) => a.cost !== null);
    if (costed.length > 1) return void problem(`${costed.length} served attempts carry a cost of goods; one should`);
    if (costed.length === 0) {
      this.unknownCostRequests += 1;
      return;
    }
    this.costedRevenueUsdMicros += request.revenue;
    this.costOfGoodsUsdMicros += costed[0].cost!;
  }
}

const OUTCOMES = new Set(['served', 'connect_error', 'timeout', 'upstream_5xx', 'upstream_429', 'cold', 'aborted', 'rejected']);

function attemptOf(data: Record<string, unknown>): Pending['attempts'][number] {
  const outcome = String(data.outcome);
  const cost = data.costOfGoodsUsdMicros;
  let malformed: string | null = null;
  if (!OUTCOMES.has(outcome)) malformed = `unknown outcome '${outcome}'`;
  else if (cost !== null && !(typeof cost === 'string' && /^\d+$/.test(cost))) malformed = `costOfGoodsUsdMicros '${String(cost)}' is not integer micros`;
  else if (!Number.isSafeInteger(data.attempt) || (data.attempt as number) < 1) malformed = `attempt '${String(data.attempt)}' is not a number from 1`;
  else if (typeof data.deploymentId !== 'string' || typeof data.organizationId !== 'string') malformed = 'no deploymentId or organizationId';
  return { outcome, cost: malformed === null && typeof cost === 'string' ? BigInt(cost) : null, malformed };
}

export function attemptLedgerLines(ledger: AttemptLedger): string[] {
  const margin = ledger.costedRevenueUsdMicros - ledger.costOfGoodsUsdMicros;
  return [
    ...ledger.problems.map((p) => `ATTEMPTS ${p.requestId}: ${p.reason}`),
    `NOTE routing: ${ledger.attemptEvents} upstream attempt(s), ${ledger.chargedWithAttempts} charged request(s) with attempts; ` +
      `revenue with a known cost of goods ${ledger.costedRevenueUsdMicros} micros, cost of goods ${ledger.costOfGoodsUsdMicros} micros, margin ${margin} micros; ` +
      `${ledger.unknownCostRequests} charged request(s) of unknown cost`,
  ];
}

/** Replays the whole store (up to the head read first) through an AttemptLedger. */
export async function replayAttempts(store: Pick<EventStore, 'readAll' | 'headPosition'>, pageSize = 1024): Promise<AttemptLedger> {
  const ledger = new AttemptLedger();
  const head = await store.headPosition();
  if (head === null) return ledger.finish();
  for (let after: string | null = null; ; ) {
    const page: RecordedEvent[] = await store.readAll({ after, maxCount: pageSize });
    const inRange = page.filter((event) => comparePositions(event.position, head) <= 0);
    inRange.forEach((event) => ledger.add(event));
    if (inRange.length < pageSize) return ledger.finish();
    after = page[page.length - 1].position;
  }
}
