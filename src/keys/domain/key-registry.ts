// The registry every replica folds from the key events: runtime keys by id and by hash, and the
// organization budgets and usage formats set through the API. Pure; the projection (key-registry.projection.ts) feeds it.
// An event it cannot read is an EventContractError, so the projection parks it instead of stalling.
import type { ApiKeyRecord } from '../../access/access.types';
import { LIMIT_RESETS, usdToMicros, type LimitReset } from '../../budgets/spend-limits';
import { EventContractError } from '../../projections/parking/event-contract-error';
import { evolve, type ApiKeyState } from './api-key';
import {
  API_KEY_CHANGED, API_KEY_ISSUED, KEY_EVENT_SCHEMA_VERSION, KEY_EVENT_TYPES, ORGANIZATION_BUDGET_SET, ORGANIZATION_USAGE_FORMAT_SET,
  type ApiKeyEvent, type KeyEventType, type OrganizationBudgetSetV1, type OrganizationUsageFormatSetV1,
} from './key-events';
import { evolveBudget, type OrganizationBudgetState } from './organization-budget';
import { evolveUsageFormat, type OrganizationUsageFormatState } from './organization-usage-format';
import { USAGE_FORMATS } from '../../billing/client-usage';

export interface RegisteredKey {
  state: ApiKeyState;
  /** What authentication reads; rebuilt on every change so a request allocates nothing. */
  record: ApiKeyRecord;
}

const KEY_EVENTS = new Set<string>(KEY_EVENT_TYPES);

export const isKeyEvent = (type: string): type is KeyEventType => KEY_EVENTS.has(type);

export class KeyRegistry {
  private readonly byId = new Map<string, RegisteredKey>();
  private readonly byHash = new Map<string, RegisteredKey>();
  private readonly budgets = new Map<string, OrganizationBudgetState>();
  private readonly usageFormats = new Map<string, OrganizationUsageFormatState>();

  /** Folds one event; other event types are ignored. */
  apply(type: string, data: unknown): void {
    if (!isKeyEvent(type)) return;
    checkContract(type, data);
    if (type === ORGANIZATION_BUDGET_SET) {
      const event = { type, data: data as OrganizationBudgetSetV1 };
      this.budgets.set(event.data.organizationId, evolveBudget(this.budgets.get(event.data.organizationId) ?? null, event));
      return;
    }
    if (type === ORGANIZATION_USAGE_FORMAT_SET) {
      const event = { type, data: data as OrganizationUsageFormatSetV1 };
      this.usageFormats.set(event.data.organizationId, evolveUsageFormat(this.usageFormats.get(event.data.organizationId) ?? null, event));
      return;
    }
    const event = { type, data } as ApiKeyEvent;
    const current = this.byId.get(event.data.keyId)?.state ?? null;
    if (type !== API_KEY_ISSUED && !current) throw new EventContractError(`${type} for key '${event.data.keyId}' that was never issued`);
    if (type === API_KEY_ISSUED && current) throw new EventContractError(`key '${event.data.keyId}' issued twice`);
    if (type === API_KEY_ISSUED && this.byHash.has((event.data as { hash: string }).hash)) throw new EventContractError(`key '${event.data.keyId}' reuses another key's hash`);
    const state = evolve(current, event)!;
    const registered = { state, record: toRecord(state) };
    this.byId.set(state.keyId, registered);
    this.byHash.set(state.hash, registered);
  }

  byKeyHash(hash: string): RegisteredKey | undefined {
    return this.byHash.get(hash);
  }

  byKeyId(id: string): RegisteredKey | undefined {
    return this.byId.get(id);
  }

  /** Runtime keys in the order they were issued. */
  keys(): IterableIterator<RegisteredKey> {
    return this.byId.values();
  }

  get keyCount(): number {
    return this.byId.size;
  }

  budget(organizationId: string): OrganizationBudgetState | undefined {
    return this.budgets.get(organizationId);
  }

  usageFormat(organizationId: string): OrganizationUsageFormatState | undefined {
    return this.usageFormats.get(organizationId);
  }

  /** Everything folded so far, for the snapshot a restart starts from. */
  toSnapshot(): KeyRegistrySnapshot {
    return { version: 1, keys: [...this.byId.values()].map((k) => k.state), budgets: [...this.budgets.values()], usageFormats: [...this.usageFormats.values()] };
  }

  /** Replaces what was folded with a snapshot (in place: the access store keeps its reference). */
  restore(snapshot: KeyRegistrySnapshot): void {
    if (snapshot?.version !== 1 || !Array.isArray(snapshot.keys) || !Array.isArray(snapshot.budgets)) throw new RangeError('not a key registry snapshot');
    this.byId.clear();
    this.byHash.clear();
    this.budgets.clear();
    this.usageFormats.clear();
    for (const state of snapshot.keys) {
      const registered = { state, record: toRecord(state) };
      this.byId.set(state.keyId, registered);
      this.byHash.set(state.hash, registered);
    }
    for (const budget of snapshot.budgets) this.budgets.set(budget.organizationId, budget);
    // Absent from snapshots written before usage formats existed.
    for (const format of snapshot.usageFormats ?? []) this.usageFormats.set(format.organizationId, format);
  }
}

export interface KeyRegistrySnapshot {
  version: 1;
  keys: ApiKeyState[];
  budgets: OrganizationBudgetState[];
  usageFormats?: OrganizationUsageFormatState[];
}

function toRecord(state: ApiKeyState): ApiKeyRecord {
  return {
    id: state.keyId,
    hash: state.hash,
    owner: state.name,
    organizations: state.organizations,
    default_organization: state.defaultOrganization,
    expires_at: state.expiresAt,
    limit_usd: state.limitUsd,
    limit_reset: state.limitReset,
    disabled: state.disabled,
    revoked: state.revoked,
    rate_limit: state.rateLimit,
  };
}

const isString = (value: unknown): value is string => typeof value === 'string' && value.length > 0;
const isUsd = (value: unknown) => value === null || (typeof value === 'string' && usdToMicros(value) !== null);
const isReset = (value: unknown): value is LimitReset => value === null || (LIMIT_RESETS as readonly unknown[]).includes(value);
const isTime = (value: unknown) => value === null || (typeof value === 'string' && !Number.isNaN(Date.parse(value)));

function checkContract(type: KeyEventType, data: unknown): void {
  const d = data as Record<string, unknown> | null;
  const fail = (why: string) => {
    throw new EventContractError(`${type}: ${why}`);
  };
  if (!d || typeof d !== 'object') return fail('no data');
  if (d.schemaVersion !== KEY_EVENT_SCHEMA_VERSION) fail(`unknown schemaVersion ${String(d.schemaVersion)}`);
  if (!isString(d.at) || !isTime(d.at)) fail('at is not a time');
  if (type === ORGANIZATION_BUDGET_SET) {
    if (!isString(d.organizationId)) fail('organizationId missing');
    if (!isUsd(d.limitUsd) || !isReset(d.limitReset)) fail('limitUsd/limitReset malformed');
    return;
  }
  if (type === ORGANIZATION_USAGE_FORMAT_SET) {
    if (!isString(d.organizationId)) fail('organizationId missing');
    if (!(USAGE_FORMATS as readonly unknown[]).includes(d.usageFormat)) fail('usageFormat malformed');
    return;
  }
  if (!isString(d.keyId)) fail('keyId missing');
  if (type === API_KEY_ISSUED) {
    if (!isString(d.hash) || !/^sha256:[0-9a-f]{64}$/.test(d.hash)) fail('hash malformed');
    if (!isString(d.name) || !Array.isArray(d.organizations) || !isString(d.defaultOrganization)) fail('name/organizations missing');
    if (!isUsd(d.limitUsd) || !isReset(d.limitReset) || !isTime(d.expiresAt)) fail('limit or expiry malformed');
  }
  if (type === API_KEY_CHANGED) {
    const c = d.changes as Record<string, unknown> | null;
    if (!c || typeof c !== 'object') return fail('changes missing');
    if ('limitUsd' in c && !isUsd(c.limitUsd)) fail('changes.limitUsd malformed');
    if ('limitReset' in c && !isReset(c.limitReset)) fail('changes.limitReset malformed');
    if ('expiresAt' in c && !isTime(c.expiresAt)) fail('changes.expiresAt malformed');
    if ('name' in c && !isString(c.name)) fail('changes.name malformed');
  }
}
