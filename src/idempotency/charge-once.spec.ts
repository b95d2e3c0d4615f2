import { chargeCoveringRequest, endKeyRun, endKeyRunAfter, keyChargeOf, keyRunsHeld, noteKeyCharge, startKeyRun } from './charge-once';

describe('one charge per key', () => {
  it('covers a run by the earlier charge it inherits: billing sees it, and it stays the key charge', () => {
    startKeyRun('r2', { requestId: 'r1', costUsdMicros: 21 });
    expect(chargeCoveringRequest('r2')).toEqual({ requestId: 'r1', costUsdMicros: 21 });
    expect(keyChargeOf('r2')).toEqual({ requestId: 'r1', costUsdMicros: 21 });
    endKeyRun('r2');
    expect(chargeCoveringRequest('r2')).toBeNull();
  });

  it('learns the charge of a run that was not covered', () => {
    startKeyRun('r3', null);
    expect(chargeCoveringRequest('r3')).toBeNull();
    expect(keyChargeOf('r3')).toBeNull();
    noteKeyCharge('r3', 34);
    expect(keyChargeOf('r3')).toEqual({ requestId: 'r3', costUsdMicros: 34 });
    endKeyRun('r3');
    expect(keyChargeOf('r3')).toBeNull();
  });

  it('knows nothing of requests without a key', () => {
    noteKeyCharge('r4', 1);
    expect(chargeCoveringRequest('r4')).toBeNull();
    expect(keyChargeOf('r4')).toBeNull();
  });

  describe('forgotten one lease after the response (one timer for all)', () => {
    beforeEach(() => jest.useFakeTimers({ now: 1_000_000 }));
    afterEach(() => jest.useRealTimers());

    it('keeps each run until its delay has passed, not a millisecond less, then forgets it', () => {
      const held = keyRunsHeld();
      for (const id of ['f1', 'f2', 'f3']) startKeyRun(id, { requestId: 'f0', costUsdMicros: 5 });
      endKeyRunAfter('f1', 1000);
      jest.advanceTimersByTime(10);
      endKeyRunAfter('f2', 1000);
      endKeyRunAfter('f3', 1000);
      jest.advanceTimersByTime(989);
      expect(['f1', 'f2', 'f3'].map(chargeCoveringRequest)).toEqual([{ requestId: 'f0', costUsdMicros: 5 }, { requestId: 'f0', costUsdMicros: 5 }, { requestId: 'f0', costUsdMicros: 5 }]);
      jest.advanceTimersByTime(1);
      expect(['f1', 'f2', 'f3'].map(chargeCoveringRequest)).toEqual([null, { requestId: 'f0', costUsdMicros: 5 }, { requestId: 'f0', costUsdMicros: 5 }]);
      jest.advanceTimersByTime(10);
      expect(['f2', 'f3'].map(chargeCoveringRequest)).toEqual([null, null]);
      expect(keyRunsHeld()).toBe(held);
      expect(jest.getTimerCount()).toBe(0);
    });

    it('forgets 5,000 runs with one timer pending at a time, each when due and none before', () => {
      const held = keyRunsHeld();
      const ids = Array.from({ length: 5000 }, (_, index) => `m${index}`);
      for (const id of ids) startKeyRun(id, { requestId: 'm', costUsdMicros: 1 });
      ids.forEach((id, index) => {
        endKeyRunAfter(id, 60_000);
        if (index % 1000 === 999) jest.advanceTimersByTime(1000);
      });
      expect(jest.getTimerCount()).toBe(1);
      const stillCovered = () => ids.filter((id) => chargeCoveringRequest(id) !== null).length;
      jest.advanceTimersByTime(60_000 - 5000 - 1);
      expect(stillCovered()).toBe(5000);
      jest.advanceTimersByTime(1);
      expect(stillCovered()).toBe(4000);
      jest.advanceTimersByTime(3000);
      expect(stillCovered()).toBe(1000);
      jest.advanceTimersByTime(1000);
      expect({ covered: stillCovered(), held: keyRunsHeld() - held, timers: jest.getTimerCount() }).toEqual({ covered: 0, held: 0, timers: 0 });
    });
  });
});
