import { decide, foldKey, type KeyState } from './key-state';
import type { IdempotencyKeyClaimedV1, IdempotentResponseRecordedV1 } from './idempotency.events';

const T0 = Date.parse('2026-01-01T00:00:00Z');
const at = (ms: number) => new Date(T0 + ms);
const DAY = 24 * 3600 * 1000;

function claimed(requestId: string, overrides: Partial<IdempotencyKeyClaimedV1> = {}): IdempotencyKeyClaimedV1 {
  return { requestId, organizationId: 'org-a', fingerprint: 'f1', claimedAt: at(0).toISOString(), leaseExpiresAt: at(60_000).toISOString(), fresh: true, chargedRequestId: null, costUsdMicros: null, ...overrides };
}

function recorded(requestId: string, overrides: Partial<IdempotentResponseRecordedV1> = {}): IdempotentResponseRecordedV1 {
  return { requestId, status: 200, contentType: 'application/json', kept: true, size: 10, chunkCount: 1, chargedRequestId: requestId, costUsdMicros: 21, recordedAt: at(1000).toISOString(), ...overrides };
}

const stream = (...events: [string, unknown][]): KeyState => foldKey(events.map(([type, data], revision) => ({ type, data, revision })));
const ask = (state: KeyState, nowMs: number, fingerprint = 'f1') => decide(state, { fingerprint, now: at(nowMs), retentionMs: DAY });

describe('an idempotency key', () => {
  it('is claimed by the first request with expected revision no_stream', () => {
    expect(ask(stream(), 0)).toEqual({ kind: 'claim', expectedRevision: 'no_stream', fresh: true, previousClaimants: [] });
  });

  it('answers in use while the claim lease runs, with Retry-After of at least one second and at most five', () => {
    const state = stream(['IdempotencyKeyClaimed', claimed('r1')]);
    expect(ask(state, 59_999)).toEqual({ kind: 'in_use', retryAfterSeconds: 1, requestId: 'r1' });
    expect(ask(state, 0)).toMatchObject({ kind: 'in_use', retryAfterSeconds: 5 });
  });

  it('is claimed again once the lease expired (the claimant died), naming the dead claimant for its charge', () => {
    const state = stream(['IdempotencyKeyClaimed', claimed('r1')]);
    expect(ask(state, 60_000)).toEqual({ kind: 'claim', expectedRevision: 0, fresh: false, previousClaimants: ['r1'] });
  });

  it('starts a new life when the store expired the claim ($maxAge) and only its recorded answer is left', () => {
    // Revisions 0 (claim) and 1 (renewal) are gone; the recorded answer at revision 2 carries the old charge.
    const state = foldKey([{ type: 'IdempotentResponseRecorded', data: recorded('r1'), revision: 2 }]);
    expect(ask(state, DAY + 1000)).toEqual({ kind: 'claim', expectedRevision: 2, fresh: true, previousClaimants: [] });
  });

  it('a renewed lease keeps the key in use and does not count as another claimant', () => {
    const state = stream(['IdempotencyKeyClaimed', claimed('r1')], ['IdempotencyKeyClaimed', claimed('r1', { leaseExpiresAt: at(120_000).toISOString() })]);
    expect(ask(state, 90_000)).toMatchObject({ kind: 'in_use' });
    expect(ask(state, 120_000)).toEqual({ kind: 'claim', expectedRevision: 1, fresh: false, previousClaimants: ['r1'] });
  });

  it('replays a kept answer, and answers not kept past the bound', () => {
    expect(ask(stream(['IdempotencyKeyClaimed', claimed('r1')], ['IdempotentResponseRecorded', recorded('r1')]), 5000)).toMatchObject({ kind: 'replay', outcome: { requestId: 'r1' } });
    expect(ask(stream(['IdempotencyKeyClaimed', claimed('r1')], ['IdempotentResponseRecorded', recorded('r1', { kept: false })]), 5000)).toMatchObject({ kind: 'not_kept' });
  });

  it('refuses another fingerprint while the key is bound (running or answered)', () => {
    expect(ask(stream(['IdempotencyKeyClaimed', claimed('r1')]), 10, 'f2')).toEqual({ kind: 'reused' });
    expect(ask(stream(['IdempotencyKeyClaimed', claimed('r1')], ['IdempotentResponseRecorded', recorded('r1')]), 10, 'f2')).toEqual({ kind: 'reused' });
  });

  it('is free again after a release, for any body', () => {
    const state = stream(['IdempotencyKeyClaimed', claimed('r1')], ['IdempotencyKeyReleased', { requestId: 'r1', status: 503, releasedAt: at(10).toISOString() }]);
    expect(ask(state, 20, 'f2')).toEqual({ kind: 'claim', expectedRevision: 1, fresh: false, previousClaimants: ['r1'] });
  });

  it('is forgotten at the retention, exactly: a new life with no earlier charge', () => {
    const state = stream(['IdempotencyKeyClaimed', claimed('r1')], ['IdempotentResponseRecorded', recorded('r1')]);
    expect(ask(state, DAY - 1)).toMatchObject({ kind: 'replay' });
    expect(ask(state, DAY, 'f2')).toEqual({ kind: 'claim', expectedRevision: 1, fresh: true, previousClaimants: [] });
  });

  it('carries one charge for its life: a dead claimant charge found at reclaim stays with the key', () => {
    const state = stream(
      ['IdempotencyKeyClaimed', claimed('r1')],
      ['IdempotencyKeyClaimed', claimed('r2', { fresh: false, chargedRequestId: 'r1', costUsdMicros: 21, claimedAt: at(60_000).toISOString() })],
      ['IdempotentResponseRecorded', recorded('r2', { chargedRequestId: 'r1', costUsdMicros: 21 })],
    );
    expect(state).toMatchObject({ claimants: ['r1', 'r2'], chargedRequestId: 'r1', costUsdMicros: 21 });
  });

  it('starts a fresh life with the charge of its new first claim only', () => {
    const state = stream(
      ['IdempotencyKeyClaimed', claimed('r1')],
      ['IdempotentResponseRecorded', recorded('r1')],
      ['IdempotencyKeyClaimed', claimed('r9', { claimedAt: at(DAY).toISOString() })],
    );
    expect(state).toMatchObject({ claimants: ['r9'], chargedRequestId: null, outcome: null });
  });
});
