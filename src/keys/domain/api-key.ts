// One runtime API key as a decider: what a command may do given the key's past (decide) and what an
// event makes of the key (evolve). Pure, emmett-style: the handler reads the stream, folds it, decides,
// and appends at the revision it read, so two replicas cannot both apply conflicting changes.
// Revoked is final: any later change or revoke is 409 `key_revoked`; an unknown id is 404 `key_not_found`.
import { ApiError } from '../../common/api-error';
import type { RateLimitConfig } from '../../access/access.types';
import type { LimitReset } from '../../budgets/spend-limits';
import {
  API_KEY_CHANGED, API_KEY_DISABLED, API_KEY_ENABLED, API_KEY_ISSUED, API_KEY_REVOKED, KEY_EVENT_SCHEMA_VERSION,
  type ApiKeyChanges, type ApiKeyEvent, type ApiKeyIssuedV1,
} from './key-events';

export interface ApiKeyState {
  keyId: string;
  hash: string;
  name: string;
  organizations: string[];
  defaultOrganization: string;
  expiresAt: string | null;
  limitUsd: string | null;
  limitReset: LimitReset;
  rateLimit: RateLimitConfig | null;
  createdAt: string;
  updatedAt: string;
  disabled: boolean;
  revoked: boolean;
}

export type IssueKey = Omit<ApiKeyIssuedV1, 'schemaVersion'>;

export interface ChangeKey {
  keyId: string;
  changes: ApiKeyChanges;
  /** undefined: unchanged. */
  disabled?: boolean;
  at: string;
  by: string;
}

export interface RevokeKey {
  keyId: string;
  at: string;
  by: string;
}

const CHANGEABLE: (keyof ApiKeyChanges)[] = ['name', 'expiresAt', 'limitUsd', 'limitReset', 'rateLimit'];

export function notFound(keyId: string): ApiError {
  return ApiError.notFound('key_not_found', `No API key with id '${keyId}'.`, 'id');
}

function revoked(keyId: string): ApiError {
  return new ApiError(409, 'key_revoked', `API key '${keyId}' is revoked; a revoked key cannot be changed or revoked again.`, 'invalid_request_error', 'id');
}

export function decideIssue(state: ApiKeyState | null, command: IssueKey): ApiKeyEvent[] {
  if (state) throw new ApiError(409, 'key_exists', `API key '${command.keyId}' already exists.`, 'invalid_request_error', 'id');
  return [{ type: API_KEY_ISSUED, data: { schemaVersion: KEY_EVENT_SCHEMA_VERSION, ...command } }];
}

/** The events a PATCH makes: only what differs from the key as it is; nothing for a no-op. */
export function decideChange(state: ApiKeyState | null, command: ChangeKey): ApiKeyEvent[] {
  if (!state) throw notFound(command.keyId);
  if (state.revoked) throw revoked(command.keyId);
  const stamp = { schemaVersion: KEY_EVENT_SCHEMA_VERSION, keyId: command.keyId, at: command.at, by: command.by } as const;
  const events: ApiKeyEvent[] = [];
  const changes: ApiKeyChanges = {};
  for (const field of CHANGEABLE) {
    const value = command.changes[field];
    if (value !== undefined && !sameValue(value, state[field])) Object.assign(changes, { [field]: value });
  }
  if (Object.keys(changes).length > 0) events.push({ type: API_KEY_CHANGED, data: { ...stamp, changes } });
  if (command.disabled === true && !state.disabled) events.push({ type: API_KEY_DISABLED, data: stamp });
  if (command.disabled === false && state.disabled) events.push({ type: API_KEY_ENABLED, data: stamp });
  return events;
}

export function decideRevoke(state: ApiKeyState | null, command: RevokeKey): ApiKeyEvent[] {
  if (!state) throw notFound(command.keyId);
  if (state.revoked) throw revoked(command.keyId);
  return [{ type: API_KEY_REVOKED, data: { schemaVersion: KEY_EVENT_SCHEMA_VERSION, ...command } }];
}

function sameValue(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

export function evolve(state: ApiKeyState | null, event: ApiKeyEvent): ApiKeyState | null {
  if (event.type === API_KEY_ISSUED) {
    const d = event.data;
    return {
      keyId: d.keyId, hash: d.hash, name: d.name, organizations: d.organizations, defaultOrganization: d.defaultOrganization,
      expiresAt: d.expiresAt, limitUsd: d.limitUsd, limitReset: d.limitReset, rateLimit: d.rateLimit,
      createdAt: d.at, updatedAt: d.at, disabled: false, revoked: false,
    };
  }
  if (!state) return state;
  switch (event.type) {
    case API_KEY_CHANGED:
      return { ...state, ...event.data.changes, updatedAt: event.data.at };
    case API_KEY_DISABLED:
      return { ...state, disabled: true, updatedAt: event.data.at };
    case API_KEY_ENABLED:
      return { ...state, disabled: false, updatedAt: event.data.at };
    case API_KEY_REVOKED:
      return { ...state, revoked: true, updatedAt: event.data.at };
    default:
      return state;
  }
}

export const foldApiKey = (events: readonly ApiKeyEvent[]): ApiKeyState | null => events.reduce(evolve, null);
