// The snapshot rule shared by the rate-limit ledgers, the budget ledger and the key registry: every N
// changes or on each M-ms tick while moved, whichever first; flushed on stop; a failed write retried.
import { SnapshotSchedule, type SnapshotCadence, type Ticker } from './snapshot-schedule';

/** A ticker the test advances by hand; it remembers the period it was asked for. */
function manualTicker() {
  const clock = { periodMs: 0, starts: 0, tick: null as (() => void) | null };
  const ticker: Ticker = (ms, tick) => {
    clock.starts++;
    clock.periodMs = ms;
    clock.tick = tick;
    return () => void (clock.tick = null);
  };
  return { clock, ticker, tick: () => clock.tick?.() };
}

function scheduleOf(cadence: SnapshotCadence, options: { moved?: boolean; failing?: boolean } = {}) {
  const target = { moved: options.moved ?? true, failing: options.failing ?? false, writes: 0, attempts: 0 };
  const manual = manualTicker();
  const schedule = new SnapshotSchedule(
    {
      moved: () => target.moved,
      save: () => {
        target.attempts++;
        if (target.failing) return false;
        target.writes++;
        target.moved = false;
        return true;
      },
    },
    cadence,
    manual.ticker,
  );
  return { schedule, target, ...manual };
}

describe('SnapshotSchedule', () => {
  it('writes on a tick only when the state moved since the last write', () => {
    const { schedule, target, tick, clock } = scheduleOf({ everyChanges: Infinity, everyMs: 5000 }, { moved: false });
    schedule.start();
    expect(clock.periodMs).toBe(5000);
    tick();
    expect(target.writes).toBe(0);
    target.moved = true;
    tick();
    expect(target.writes).toBe(1);
    tick();
    expect(target.writes).toBe(1);
  });

  it('writes as soon as the changes reach N, not one before', () => {
    const { schedule, target } = scheduleOf({ everyChanges: 3, everyMs: 5000 });
    schedule.start();
    schedule.changed(2);
    expect(target.writes).toBe(0);
    schedule.changed(1);
    expect(target.writes).toBe(1);
    schedule.changed(2);
    expect(target.writes).toBe(1);
  });

  it('a page of many changes makes one write', () => {
    const { schedule, target } = scheduleOf({ everyChanges: 1, everyMs: 5000 });
    schedule.changed(40);
    expect(target.writes).toBe(1);
  });

  it('whichever comes first: a tick before N changes writes them and starts the count again', () => {
    const { schedule, target, tick } = scheduleOf({ everyChanges: 3, everyMs: 5000 });
    schedule.start();
    schedule.changed(2);
    tick();
    expect(target.writes).toBe(1);
    target.moved = true;
    schedule.changed(2);
    expect(target.writes).toBe(1);
    schedule.changed(1);
    expect(target.writes).toBe(2);
  });

  it('by time only (N infinite), changes alone never write', () => {
    const { schedule, target } = scheduleOf({ everyChanges: Infinity, everyMs: 5000 });
    schedule.changed(1_000_000);
    expect(target.writes).toBe(0);
  });

  it('flushes on stop when moved, and ticks no more after it', () => {
    const { schedule, target, clock } = scheduleOf({ everyChanges: Infinity, everyMs: 5000 });
    schedule.start();
    schedule.stop();
    expect(target.writes).toBe(1);
    expect(clock.tick).toBeNull();
  });

  it('does not write on stop when nothing moved', () => {
    const { schedule, target } = scheduleOf({ everyChanges: 1, everyMs: 5000 }, { moved: false });
    schedule.start();
    schedule.stop();
    expect(target.attempts).toBe(0);
  });

  it('a failed write is tried again at the next change and the next tick', () => {
    const { schedule, target, tick } = scheduleOf({ everyChanges: 2, everyMs: 5000 }, { failing: true });
    schedule.start();
    schedule.changed(2);
    expect(target.attempts).toBe(1);
    schedule.changed(1);
    expect(target.attempts).toBe(2);
    tick();
    expect(target.attempts).toBe(3);
    target.failing = false;
    tick();
    expect(target.writes).toBe(1);
  });

  it('starting twice keeps one ticker', () => {
    const { schedule, clock } = scheduleOf({ everyChanges: Infinity, everyMs: 20 });
    schedule.start();
    schedule.start();
    expect(clock.starts).toBe(1);
  });
});
