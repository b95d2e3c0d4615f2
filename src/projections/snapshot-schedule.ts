// When a folded projection writes its snapshot (snapshot-row.ts): once `everyChanges` changes were
// folded since the last write, or on each `everyMs` tick while it differs from the last write,
// whichever comes first; and once more on stop, so a clean stop leaves the snapshot at the fold.
// A failed write is tried again at the next of those. Used by the rate-limit ledgers, the budget
// ledger and the key registry, each with its own thresholds.

export interface SnapshotCadence {
  /** Changes folded since the last write that make the next one due at once (Infinity: by time only). */
  everyChanges: number;
  everyMs: number;
}

export interface SnapshotTarget {
  /** True when the state differs from the last snapshot written. */
  moved(): boolean;
  /** Writes the snapshot; false when the write failed (the target logs it). */
  save(): boolean;
}

/** Calls `tick` every `ms` until the returned function is called. */
export type Ticker = (ms: number, tick: () => void) => () => void;

/** Node's interval, not keeping the process alive. */
export const intervalTicker: Ticker = (ms, tick) => {
  const timer = setInterval(tick, ms);
  timer.unref();
  return () => clearInterval(timer);
};

export class SnapshotSchedule {
  private changes = 0;
  private cancelTicks: (() => void) | null = null;

  constructor(
    private readonly target: SnapshotTarget,
    private readonly cadence: SnapshotCadence,
    private readonly ticker: Ticker = intervalTicker,
  ) {}

  start(): void {
    this.cancelTicks ??= this.ticker(this.cadence.everyMs, () => this.writeIfMoved());
  }

  /** `count` changes were folded (a page's worth, so one page makes at most one write). */
  changed(count: number): void {
    this.changes += count;
    if (this.changes >= this.cadence.everyChanges) this.write();
  }

  stop(): void {
    this.cancelTicks?.();
    this.cancelTicks = null;
    this.writeIfMoved();
  }

  private writeIfMoved(): void {
    if (this.target.moved()) this.write();
  }

  private write(): void {
    if (this.target.save()) this.changes = 0;
  }
}
