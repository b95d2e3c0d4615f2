// The budget ledger as this replica folds it (docs/keys-and-budgets.md "Budgets and holds"): the holds,
// settlements and releases of every scope, from the store through the projection hub. It is snapshotted
// to read-models.sqlite every few seconds while it moves (BudgetLedgerStore), and answers what a scope
// has spent in a window (the key views). The holds (budget-holds.ts) decide on it.
import { SILENT_LOG, type GatewayLog } from '../common/gateway-log';
import { comparePositions, type RecordedEvent } from '../event-store/event-store.port';
import type { Projection } from '../projections/projection-runner';
import { heldIn, initialLedger, scopeKey, settledIn, evolve, type BudgetLedgerState, type LedgerEvent } from './budget-ledger';
import { restoreLedger, toLedgerSnapshot } from './budget-ledger-snapshot';
import type { BudgetLedgerStore } from './budget-ledger-store';
import type { BudgetScope } from './budget.events';
import { limitWindow, type LimitReset } from './spend-limits';
import { SpendReader, type WindowSpend } from './spend-reader';
import { SnapshotSchedule } from '../projections/snapshot-schedule';

const SNAPSHOT_INTERVAL_MS = 5_000;
const FOLDED = new Set(['SpendHeld', 'SpendReleased', 'UsageMeasured', 'CostPriced', 'BudgetThresholdCrossed']);

export class BudgetLedgerProjection extends SpendReader implements Projection {
  readonly name = 'budgets';
  /** Folded from the store; the holds also evolve their own appends into it. */
  readonly state: BudgetLedgerState = initialLedger();
  private position: string | null = null;
  private savedPosition: string | null = null;
  /** Every 5 s while the position moves. */
  private readonly schedule = new SnapshotSchedule({ moved: () => this.position !== this.savedPosition, save: () => this.snapshot() }, { everyChanges: Infinity, everyMs: SNAPSHOT_INTERVAL_MS });

  /** Without `snapshots` every start folds the whole store. */
  constructor(
    private readonly snapshots: BudgetLedgerStore | null,
    private readonly now: () => number,
    private readonly logger: GatewayLog = SILENT_LOG,
  ) {
    super();
  }

  checkpoint(): string | null {
    return this.position;
  }

  /** Restores the snapshot (before the hub catches up) and snapshots every few seconds while the position moves. */
  start(): void {
    const snapshots = this.snapshots;
    if (!snapshots) return;
    const saved = snapshots.load();
    if (saved) {
      try {
        restoreLedger(this.state, saved.snapshot);
        this.position = this.savedPosition = saved.position;
      } catch (error) {
        this.logger.warn(`budget ledger snapshot not restored (${(error as Error).message}); replaying the store`);
      }
    }
    this.schedule.start();
  }

  /** After the hub has stopped (services stop in reverse), so the last snapshot holds every folded event. */
  stop(): void {
    if (this.snapshots) this.schedule.stop();
  }

  private snapshot(): boolean {
    if (!this.snapshots?.save(this.position, toLedgerSnapshot(this.state, this.now()), this.now())) return false;
    this.savedPosition = this.position;
    return true;
  }

  apply(event: RecordedEvent): void {
    this.applyPage([event]);
  }

  applyPage(events: readonly RecordedEvent[]): void {
    for (const event of events) {
      if (this.position !== null && comparePositions(event.position, this.position) <= 0) continue;
      if (FOLDED.has(event.type)) evolve(this.state, { type: event.type, revision: event.revision, data: event.data } as LedgerEvent);
      this.position = event.position;
    }
  }

  spentIn(scope: BudgetScope, id: string, reset: LimitReset, nowMs: number): WindowSpend {
    const ledger = this.state.scopes.get(scopeKey(scope, id));
    const window = limitWindow(reset, nowMs);
    return { settledUsdMicros: settledIn(ledger, window), heldUsdMicros: heldIn(ledger, window, nowMs), windowStart: window.start, resetsAt: window.end };
  }
}
