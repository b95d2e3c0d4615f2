import { chargeCoveringRequest, endKeyRun, keyChargeOf, noteKeyCharge, startKeyRun } from './charge-once';

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
});
