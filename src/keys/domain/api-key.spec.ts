import { ApiError } from '../../common/api-error';
import { decideChange, decideIssue, decideRevoke, evolve, foldApiKey, type ApiKeyState, type IssueKey } from './api-key';
import type { ApiKeyEvent } from './key-events';

const issue: IssueKey = {
  keyId: 'key_a', hash: `sha256:${'a'.repeat(64)}`, name: 'one', organizations: ['org-a'], defaultOrganization: 'org-a',
  expiresAt: null, limitUsd: '1.5', limitReset: 'daily', rateLimit: null, at: '2026-01-01T00:00:00.000Z', by: 'mgmt',
};
const at = '2026-01-02T00:00:00.000Z';
const issued = (): ApiKeyState => foldApiKey(decideIssue(null, issue))!;
const apply = (state: ApiKeyState | null, events: ApiKeyEvent[]) => events.reduce(evolve, state);

function refusal(run: () => unknown): [number, string] {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    return [(error as ApiError).status, (error as ApiError).code];
  }
  throw new Error('expected a refusal');
}

describe('api key decider', () => {
  it('issues once, with schemaVersion 1 and only the hash', () => {
    const events = decideIssue(null, issue);
    expect(events).toEqual([{ type: 'ApiKeyIssued', data: { schemaVersion: 1, ...issue } }]);
    expect(foldApiKey(events)).toMatchObject({ keyId: 'key_a', disabled: false, revoked: false, limitUsd: '1.5', createdAt: issue.at });
    expect(refusal(() => decideIssue(issued(), issue))).toEqual([409, 'key_exists']);
  });

  it('records only what a change alters, and nothing for a no-op', () => {
    const state = issued();
    expect(decideChange(state, { keyId: 'key_a', changes: { name: 'one', limitUsd: '1.5' }, disabled: false, at, by: 'm' })).toEqual([]);
    const events = decideChange(state, { keyId: 'key_a', changes: { name: 'two', limitUsd: '1.5', limitReset: null }, disabled: true, at, by: 'm' });
    expect(events.map((e) => e.type)).toEqual(['ApiKeyChanged', 'ApiKeyDisabled']);
    expect(events[0].data).toMatchObject({ changes: { name: 'two', limitReset: null } });
    const after = apply(state, events)!;
    expect(after).toMatchObject({ name: 'two', limitReset: null, limitUsd: '1.5', disabled: true, updatedAt: at });
    expect(decideChange(after, { keyId: 'key_a', changes: {}, disabled: false, at, by: 'm' }).map((e) => e.type)).toEqual(['ApiKeyEnabled']);
  });

  it('treats revoked as final: changes and a second revoke are 409, unknown keys 404', () => {
    const revoked = apply(issued(), decideRevoke(issued(), { keyId: 'key_a', at, by: 'm' }))!;
    expect(revoked.revoked).toBe(true);
    expect(refusal(() => decideChange(revoked, { keyId: 'key_a', changes: { name: 'x' }, at, by: 'm' }))).toEqual([409, 'key_revoked']);
    expect(refusal(() => decideChange(revoked, { keyId: 'key_a', changes: {}, disabled: false, at, by: 'm' }))).toEqual([409, 'key_revoked']);
    expect(refusal(() => decideRevoke(revoked, { keyId: 'key_a', at, by: 'm' }))).toEqual([409, 'key_revoked']);
    expect(refusal(() => decideChange(null, { keyId: 'key_b', changes: {}, at, by: 'm' }))).toEqual([404, 'key_not_found']);
    expect(refusal(() => decideRevoke(null, { keyId: 'key_b', at, by: 'm' }))).toEqual([404, 'key_not_found']);
  });

  it('ignores events for a key never issued', () => {
    expect(evolve(null, { type: 'ApiKeyDisabled', data: { schemaVersion: 1, keyId: 'key_a', at, by: 'm' } })).toBeNull();
  });
});
