// The ledger check: replays the WHOLE store up to its head, sums CostPriced costUsdMicros per
// organization and UTC day of occurredAt, and compares the sums with the daily cost read model exactly.
// Beside the day totals it reports what makes the read model untrustworthy: missing, behind the head
// (stuck), CostPriced events it parked, and CostPriced events the fold rejects that nobody parked.
// Day totals are compared over the events the read model covers (up to its checkpoint), so a projection
// that is behind shows up once, as BEHIND, and not as a difference on every later day.
import { comparePositions, type EventStore, type RecordedEvent } from '../../event-store/event-store.port';
import type { UtcDay } from '../../costs/domain/utc-day';
import { EventContractError } from '../parking/event-contract-error';
import type { ParkedEvent } from '../parking/parked-events';
import type { CostReadModel, DailyTotalsSnapshot } from './cost-read-model';
import { checkCostPricedEvent } from './cost-priced-contract';
import { DAILY_COST_PROJECTION } from './daily-cost.projection';

export interface LedgerDifference {
  organizationId: string;
  day: UtcDay;
  ledgerUsdMicros: bigint;
  readModelUsdMicros: bigint;
}

/** A stored CostPriced the fold rejects although the read model did not park it. */
export interface UnpricedEvent {
  eventId: string;
  position: string;
  reason: string;
}

export interface LedgerCheckResult {
  /** Read model checkpoint the comparison was made at. */
  checkpoint: string | null;
  /** The store's last position when the check started (everything up to it is replayed). */
  head: string | null;
  /** False when the read model file does not exist at all. */
  readModelPresent: boolean;
  eventsReplayed: number;
  costEventsReplayed: number;
  /** Store events after the read model's checkpoint: non-zero means the read model is behind (stuck). */
  eventsNotProjected: number;
  /** Organization/day totals that differ (over the events up to the checkpoint). */
  differences: LedgerDifference[];
  /** CostPriced events the daily cost projection parked and nobody acknowledged. */
  parked: ParkedEvent[];
  /** Parked CostPriced events an operator acknowledged (reported, not a difference). */
  acknowledgedParked: ParkedEvent[];
  unpriced: UnpricedEvent[];
}

export interface LedgerCheckOptions {
  pageSize?: number;
  /** False when the read model file is missing (the CLI checks an empty one then). */
  readModelPresent?: boolean;
  /** Every parked event of the read model (listParkedEvents); only daily-cost CostPriced ones count. */
  parkedEvents?: readonly ParkedEvent[];
  /** A live gateway projects within milliseconds: wait up to this long for the read model to reach the head. */
  catchUpGraceMs?: number;
}

const keyOf = (organizationId: string, day: UtcDay): string => JSON.stringify([organizationId, day]);

export async function checkLedger(store: EventStore, readModel: CostReadModel, options: LedgerCheckOptions | number = {}): Promise<LedgerCheckResult> {
  const settings: LedgerCheckOptions = typeof options === 'number' ? { pageSize: options } : options;
  const { pageSize = 1024, readModelPresent = true, parkedEvents = [], catchUpGraceMs = 0 } = settings;
  const head = await store.headPosition();
  const { checkpoint, totals } = await snapshotAtHead(readModel, head, catchUpGraceMs);
  const parkedCosts = parkedEvents.filter((event) => event.projection === DAILY_COST_PROJECTION && event.eventType === 'CostPriced');
  const replay = new LedgerReplay(checkpoint, new Set(parkedCosts.map((event) => event.eventId)));
  // The head, or the checkpoint when a running projection already went past the head read above.
  const until = head !== null && (checkpoint === null || comparePositions(head, checkpoint) > 0) ? head : checkpoint;
  if (until !== null) await replayUpTo(store, until, pageSize, replay);
  const projected = new Map(totals.map((total) => [keyOf(total.organizationId, total.day), total.amountUsdMicros]));
  return {
    checkpoint,
    head,
    readModelPresent,
    eventsReplayed: replay.eventsReplayed,
    costEventsReplayed: replay.costEventsReplayed,
    eventsNotProjected: replay.eventsNotProjected,
    differences: compare(replay.ledger, projected),
    parked: parkedCosts.filter((event) => event.acknowledgedAt === null),
    acknowledgedParked: parkedCosts.filter((event) => event.acknowledgedAt !== null),
    unpriced: replay.unpriced,
  };
}

/** True when the read model can be trusted: present (unless the store is empty), at the head, equal, nothing parked. */
export function isLedgerClean(result: LedgerCheckResult): boolean {
  const missing = !result.readModelPresent && result.head !== null;
  return !missing && result.eventsNotProjected === 0 && result.differences.length === 0 && result.parked.length === 0 && result.unpriced.length === 0;
}

async function replayUpTo(store: EventStore, until: string, pageSize: number, replay: LedgerReplay): Promise<void> {
  for (let after: string | null = null; ; ) {
    const page: RecordedEvent[] = await store.readAll({ after, maxCount: pageSize });
    const inRange = page.filter((event) => comparePositions(event.position, until) <= 0);
    inRange.forEach((event) => replay.add(event));
    if (inRange.length < pageSize) return;
    after = page[page.length - 1].position;
  }
}

async function snapshotAtHead(readModel: CostReadModel, head: string | null, graceMs: number): Promise<DailyTotalsSnapshot> {
  const deadline = Date.now() + graceMs;
  for (;;) {
    const snapshot = readModel.dailyTotalsSnapshot();
    const atHead = head === null || (snapshot.checkpoint !== null && comparePositions(snapshot.checkpoint, head) >= 0);
    if (atHead || Date.now() >= deadline) return snapshot;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

class LedgerReplay {
  readonly ledger = new Map<string, bigint>();
  readonly unpriced: UnpricedEvent[] = [];
  eventsReplayed = 0;
  costEventsReplayed = 0;
  eventsNotProjected = 0;

  constructor(
    private readonly checkpoint: string | null,
    private readonly parkedIds: ReadonlySet<string>,
  ) {}

  add(event: RecordedEvent): void {
    this.eventsReplayed++;
    if (this.checkpoint === null || comparePositions(event.position, this.checkpoint) > 0) this.eventsNotProjected++;
    if (event.type !== 'CostPriced') return;
    this.costEventsReplayed++;
    // Parked events are reported as such; events beyond the checkpoint are already counted as not projected.
    if (this.parkedIds.has(event.id) || this.checkpoint === null || comparePositions(event.position, this.checkpoint) > 0) return;
    try {
      const { event: priced, day, costUsdMicros } = checkCostPricedEvent(event);
      const key = keyOf(priced.organizationId, day);
      this.ledger.set(key, (this.ledger.get(key) ?? 0n) + costUsdMicros);
    } catch (error) {
      if (!(error instanceof EventContractError)) throw error;
      this.unpriced.push({ eventId: event.id, position: event.position, reason: error.message });
    }
  }
}

function compare(ledger: Map<string, bigint>, projected: Map<string, bigint>): LedgerDifference[] {
  const keys = [...new Set([...ledger.keys(), ...projected.keys()])].sort();
  return keys.flatMap((key) => {
    const ledgerUsdMicros = ledger.get(key) ?? 0n;
    const readModelUsdMicros = projected.get(key) ?? 0n;
    if (ledgerUsdMicros === readModelUsdMicros) return [];
    const [organizationId, day] = JSON.parse(key) as [string, UtcDay];
    return [{ organizationId, day, ledgerUsdMicros, readModelUsdMicros }];
  });
}
