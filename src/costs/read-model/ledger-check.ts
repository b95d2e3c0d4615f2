// The ledger check: replays the WHOLE store up to its head, sums CostPriced costUsdMicros per
// organization and UTC day of occurredAt, and compares the sums with the daily cost read model exactly.
// A read model behind the head is normal on a stopped gateway (or one between pages): the events it has
// not applied yet are replayed onto its totals with the same fold, so both sides are compared at the
// SAME position and only a real difference counts. Beside the day totals it reports what makes the read
// model untrustworthy: missing, bound to another store, CostPriced events it parked, and CostPriced
// events the fold rejects that nobody parked.
import { comparePositions, type EventStore, type RecordedEvent } from '../../event-store/event-store.port';
import type { UtcDay } from '../domain/utc-day';
import { EventContractError } from '../../projections/parking/event-contract-error';
import type { ParkedEvent } from '../../projections/parking/parked-events';
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
  /** Store events after the read model's checkpoint (its lag): replayed onto its totals, not a difference. */
  eventsNotProjected: number;
  /** Why the read model belongs to another store (or an older one), or null. */
  foreignStore: string | null;
  /** Organization/day totals that differ, the read model's with its lag replayed. */
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
  /** Optionally wait up to this long for a running gateway's read model to reach the head (its lag is replayed anyway). */
  catchUpGraceMs?: number;
  /** The store id the read model recorded (read-model-store-binding.ts); undefined: not checked. */
  readModelStoreId?: string | null;
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
  for (const [key, micros] of replay.lag) projected.set(key, (projected.get(key) ?? 0n) + micros);
  return {
    checkpoint,
    head,
    readModelPresent,
    eventsReplayed: replay.eventsReplayed,
    costEventsReplayed: replay.costEventsReplayed,
    eventsNotProjected: replay.eventsNotProjected,
    foreignStore: await foreignStore(store, settings.readModelStoreId, checkpoint),
    differences: compare(replay.ledger, projected),
    parked: parkedCosts.filter((event) => event.acknowledgedAt === null),
    acknowledgedParked: parkedCosts.filter((event) => event.acknowledgedAt !== null),
    unpriced: replay.unpriced,
  };
}

/** The read model was built from another store, or its checkpoint lies past this store's head (an older backup). */
async function foreignStore(store: EventStore, recorded: string | null | undefined, checkpoint: string | null): Promise<string | null> {
  if (recorded !== undefined && recorded !== null) {
    const storeId = await store.storeId();
    if (recorded !== storeId) return `built from event store ${recorded}, this is ${storeId}`;
  }
  if (checkpoint === null) return null;
  // Read again: a running projection may have passed the head read before the snapshot.
  const head = await store.headPosition();
  return head === null || comparePositions(checkpoint, head) > 0 ? `checkpoint ${checkpoint} is past the store's head ${head ?? '(empty)'} (restored from an older backup?)` : null;
}

/** True when the read model can be trusted: present (unless the store is empty), this store's, equal, nothing parked. A lag is not a difference. */
export function isLedgerClean(result: LedgerCheckResult): boolean {
  const missing = !result.readModelPresent && result.head !== null;
  return !missing && result.foreignStore === null && result.differences.length === 0 && result.parked.length === 0 && result.unpriced.length === 0;
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
  /** Every priced cost up to the head, per organization/day. */
  readonly ledger = new Map<string, bigint>();
  /** The costs after the read model's checkpoint, which it has not applied yet. */
  readonly lag = new Map<string, bigint>();
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
    const notProjected = this.checkpoint === null || comparePositions(event.position, this.checkpoint) > 0;
    if (notProjected) this.eventsNotProjected++;
    if (event.type !== 'CostPriced') return;
    this.costEventsReplayed++;
    // Parked events are reported as such, left out of both sides.
    if (this.parkedIds.has(event.id)) return;
    try {
      const { event: priced, day, costUsdMicros } = checkCostPricedEvent(event);
      const key = keyOf(priced.organizationId, day);
      this.ledger.set(key, (this.ledger.get(key) ?? 0n) + costUsdMicros);
      if (notProjected) this.lag.set(key, (this.lag.get(key) ?? 0n) + costUsdMicros);
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
