// Holds, settlements and releases against the key's and the organization's spend limits (issue 29,
// docs/keys-and-budgets.md "Budgets and holds"). A hold is a SpendHeld appended to the scope's budget
// stream at the revision the decision saw (a conflict means another replica held meanwhile: read its
// holds, decide again), awaited before the upstream call. The request's CostPriced settles it (same
// request id), a SpendReleased in the request's stream releases it. Until the fold sees a settlement
// the whole hold keeps counting, which only errs on the safe side. Callers without limits never reach
// anything here but a null check.
import { SILENT_LOG, type GatewayLog } from '../common/gateway-log';
import type { CallerContext } from '../access/access.types';
import { microsToUsd, type LimitReset, type SpendLimit } from './spend-limits';
import { SpendReader, type WindowSpend } from './spend-reader';
import { ApiError } from '../common/api-error';
import { EventStore, type NewEvent, type RecordedEvent } from '../event-store/event-store.port';
import { appendAtRevision } from '../event-store/append-at-revision';
import { eventIdFor, GATEWAY_EVENT_NAMESPACE, requestStreamId, uuidV5 } from '../event-store/event-ids';
import type { Projection } from '../projections/projection-runner';
import { limitWindow } from './spend-limits';
import { writeFailureRefusal } from '../event-store/store-writes-failing';
import { decideHold, evolve, scopeKey, settleHere, type BudgetLedgerState, type PendingCharge } from './budget-ledger';
import { BudgetLedgerProjection } from './budget-ledger-projection';
import type { BudgetLedgerStore } from './budget-ledger-store';
import { chargeDayOf, forgetPending, notePending, thresholdsCrossed } from './budget-thresholds';
import {
  BUDGET_THRESHOLD_CROSSED, budgetStreamId, SPEND_HELD, SPEND_RELEASED,
  type BudgetScope, type BudgetThresholdCrossedV1, type SpendHeldV1, type SpendReleasedV1,
} from './budget.events';

/** How long an unsettled hold counts: past it, its replica is taken to have died (docs/keys-and-budgets.md). */
export const DEFAULT_HOLD_TTL_MS = 15 * 60_000;
const MAX_CONFLICTS = 32;
const METADATA = { schemaVersion: 1 };

export interface BudgetHoldsOptions {
  holdTtlMs?: number;
  now?: () => number;
  /** Told of every budget refusal (metrics). */
  onRefused?: (organizationId: string) => void;
  /** Where the ledger's snapshot is kept (read-models.sqlite); without it every start folds the whole store. */
  snapshots?: BudgetLedgerStore;
  /** Context `budgets`. */
  log?: GatewayLog;
}

type Caller = Pick<CallerContext, 'keyId' | 'organizationId' | 'limits'>;
export interface HoldContext {
  requestId: string;
  caller: Caller;
}

export const hasLimits = (caller: Caller): boolean => caller.limits.key !== null || caller.limits.organization !== null;

/**
 * The hold, settle and release commands. Their decisions read the budget ledger this replica folds
 * (BudgetLedgerProjection, which also snapshots it and answers the key views' spend); the holds are
 * that ledger's face to the projection hub and the key views, so one object is registered for both.
 */
export class BudgetHolds extends SpendReader implements Projection {
  readonly name = 'budgets';
  readonly ledger: BudgetLedgerProjection;
  private readonly state: BudgetLedgerState;
  /** Requests of this replica holding and not yet settled or released. */
  private readonly open = new Set<string>();
  /** One hold decision at a time per scope on this replica, so its own requests never conflict. */
  private readonly queues = new Map<string, Promise<unknown>>();
  private readonly holdTtlMs: number;
  private readonly now: () => number;
  private readonly logger: GatewayLog;

  constructor(private readonly store: EventStore, private readonly options: BudgetHoldsOptions = {}) {
    super();
    this.holdTtlMs = options.holdTtlMs ?? DEFAULT_HOLD_TTL_MS;
    this.now = options.now ?? Date.now;
    this.logger = options.log ?? SILENT_LOG;
    this.ledger = new BudgetLedgerProjection(options.snapshots ?? null, this.now, this.logger);
    this.state = this.ledger.state;
  }

  checkpoint(): string | null {
    return this.ledger.checkpoint();
  }

  /** Restores the ledger's snapshot (before the hub catches up) and starts its periodic snapshot. */
  start(): void {
    this.ledger.start();
  }

  /** After the hub has stopped (services stop in reverse), so the last snapshot holds every folded event. */
  stop(): void {
    this.ledger.stop();
  }

  apply(event: RecordedEvent): void {
    this.ledger.apply(event);
  }

  applyPage(events: readonly RecordedEvent[]): void {
    this.ledger.applyPage(events);
  }

  spentIn(scope: BudgetScope, id: string, reset: LimitReset, nowMs: number): WindowSpend {
    return this.ledger.spentIn(scope, id, reset, nowMs);
  }

  /** Holds `amount` (null: unbounded) against each limit of the caller, or refuses with 402 having held nothing. */
  async hold(ctx: HoldContext, amount: bigint | null): Promise<void> {
    // A request that cannot cost anything (a free model) takes no room from anyone.
    if (amount === 0n) return;
    const { caller } = ctx;
    const scopes: [BudgetScope, string, SpendLimit | null][] = [['key', caller.keyId, caller.limits.key], ['organization', caller.organizationId, caller.limits.organization]];
    try {
      for (const [scope, id, limit] of scopes) {
        if (limit === null) continue;
        if (amount === null) throw this.refusal(caller, scope, id, limit, null);
        await this.serialized(scopeKey(scope, id), () => this.holdIn(ctx, scope, id, limit, amount));
        this.open.add(ctx.requestId);
      }
    } catch (error) {
      await this.release(ctx, error instanceof ApiError ? error.code : 'hold_failed');
      throw error;
    }
  }

  /** Events to append with the request's CostPriced: the thresholds its charge crosses. Null without limits. */
  settlementEvents(ctx: HoldContext, costUsdMicros: number | null, occurredAt: string): NewEvent[] | null {
    if (!hasLimits(ctx.caller)) return null;
    const cost = BigInt(costUsdMicros ?? 0);
    const nowMs = Date.parse(occurredAt);
    const events: NewEvent[] = [];
    const pending: PendingCharge[] = [];
    for (const [scope, id, limit] of [['key', ctx.caller.keyId, ctx.caller.limits.key], ['organization', ctx.caller.organizationId, ctx.caller.limits.organization]] as const) {
      if (limit === null) continue;
      const key = scopeKey(scope, id);
      const day = chargeDayOf(this.state, key, ctx.requestId, nowMs);
      const marks: string[] = [];
      for (const crossing of thresholdsCrossed(this.state, key, limit, day, cost)) {
        marks.push(crossing.mark);
        const data: BudgetThresholdCrossedV1 = {
          organizationId: ctx.caller.organizationId, scope, scopeId: id, thresholdPercent: crossing.threshold,
          limitUsdMicros: String(limit.limitUsdMicros), reset: limit.reset, spentUsdMicros: String(crossing.spent),
          windowStart: new Date(crossing.window.start).toISOString(), resetsAt: crossing.window.end === null ? null : new Date(crossing.window.end).toISOString(),
          requestId: ctx.requestId, occurredAt,
        };
        const name = `budget-threshold/${scope}/${id}/${data.windowStart}/${crossing.threshold}`;
        events.push({ id: uuidV5(name, GATEWAY_EVENT_NAMESPACE), type: BUDGET_THRESHOLD_CROSSED, data, metadata: METADATA });
      }
      pending.push({ scopeKey: key, amount: cost, day, marks });
    }
    notePending(this.state, ctx.requestId, pending);
    return events;
  }

  /** The charge was recorded (appended, or spooled to be appended): its CostPriced settles the holds. */
  settled(ctx: HoldContext, costUsdMicros: number | null, occurredAt: string): void {
    this.open.delete(ctx.requestId);
    settleHere(this.state, { requestId: ctx.requestId, organizationId: ctx.caller.organizationId, costUsdMicros, occurredAt }, ctx.caller.keyId);
  }

  /** The charge was not recorded: it will not settle anything. */
  chargeFailed(requestId: string): void {
    forgetPending(this.state, requestId);
  }

  /** Releases the request's holds if it still has any (a failed or refused request); never throws. */
  async release(ctx: HoldContext, reason: string): Promise<void> {
    if (!this.open.delete(ctx.requestId)) return;
    const data: SpendReleasedV1 = { requestId: ctx.requestId, organizationId: ctx.caller.organizationId, keyId: ctx.caller.keyId, reason, releasedAt: this.now() };
    try {
      await this.store.append(requestStreamId(ctx.requestId), [{ id: eventIdFor(ctx.requestId, SPEND_RELEASED), type: SPEND_RELEASED, data, metadata: METADATA }]);
    } catch (error) {
      this.logger.error({ err: error, requestId: ctx.requestId }, `hold of request ${ctx.requestId} not released (${(error as Error).message}); it expires instead`);
    }
  }

  /** Unsettled holds this replica still has open (shutdown checks, tests). */
  openHolds(): number {
    return this.open.size;
  }

  private holdIn(ctx: HoldContext, scope: BudgetScope, id: string, limit: SpendLimit, amount: bigint): Promise<void> {
    const streamId = budgetStreamId(scope, id);
    const unavailable = (error: unknown) => unavailableAfter(this.logger, error);
    return appendAtRevision<void>(this.store, {
      streamId,
      maxAttempts: MAX_CONFLICTS,
      decide: () => {
        const nowMs = this.now();
        const decision = decideHold(this.state, scope, id, limit, amount, nowMs);
        if (!decision.fits) throw this.refusal(ctx.caller, scope, id, limit, amount, decision.window.end);
        const data: SpendHeldV1 = {
          requestId: ctx.requestId, scope, scopeId: id, organizationId: ctx.caller.organizationId, keyId: ctx.caller.keyId,
          amountUsdMicros: String(amount), heldAt: nowMs, expiresAt: nowMs + this.holdTtlMs,
        };
        const event = { id: eventIdFor(ctx.requestId, `${SPEND_HELD}:${scope}`), type: SPEND_HELD, data, metadata: METADATA };
        const expected = decision.expectedRevision;
        return { events: [event], expectedRevision: expected, appended: () => void evolve(this.state, { type: 'SpendHeld', revision: expected + 1, data }) };
      },
      // The store can fail between the conflict and this read (a database restart): a 503 as well, not a 500.
      catchUp: () => this.catchUp(streamId, scope, id).catch((readError: unknown) => Promise.reject(unavailable(readError))),
      appendFailed: unavailable,
      exhausted: () => unavailable(new Error(`budget hold on ${streamId}: ${MAX_CONFLICTS} conflicts in a row`)),
    });
  }

  /** Folds the holds other replicas appended to the budget stream since the revision folded here. */
  private async catchUp(streamId: string, scope: BudgetScope, id: string): Promise<void> {
    const fromRevision = (this.state.scopes.get(scopeKey(scope, id))?.revision ?? -1) + 1;
    for (const event of await this.store.readStream(streamId, { fromRevision })) {
      if (event.type === SPEND_HELD) evolve(this.state, { type: 'SpendHeld', revision: event.revision, data: event.data as SpendHeldV1 });
    }
  }

  private serialized<T>(key: string, work: () => Promise<T>): Promise<T> {
    const previous = this.queues.get(key) ?? Promise.resolve();
    const next = previous.then(work, work);
    const tail = next.catch(() => undefined);
    this.queues.set(key, tail);
    void tail.then(() => {
      if (this.queues.get(key) === tail) this.queues.delete(key);
    });
    return next;
  }

  private refusal(caller: Caller, scope: BudgetScope, id: string, limit: SpendLimit, amount: bigint | null, resetsAt: number | null = limitWindow(limit.reset, this.now()).end): ApiError {
    this.options.onRefused?.(caller.organizationId);
    const whose = scope === 'key' ? `this API key's spend limit (key '${id}')` : `the budget of organization '${id}'`;
    const period = limit.reset === null ? 'lifetime' : limit.reset;
    const resets = resetsAt === null ? 'It never resets.' : `It resets at ${new Date(resetsAt).toISOString()}.`;
    const cost = amount === null ? 'this request has no upper bound on its cost (send max_completion_tokens)' : `this request may cost up to ${microsToUsd(amount)} USD`;
    return new ApiError(402, 'budget_exceeded', `Budget exceeded: ${cost}, more than remains of ${whose}: ${microsToUsd(limit.limitUsdMicros)} USD (${period}). ${resets}`, 'billing_error');
  }
}

function unavailableAfter(logger: GatewayLog, error: unknown): ApiError {
  logger.error({ err: error }, `budget hold not recorded (${(error as Error).message}); answering 503`);
  return writeFailureRefusal(error, { code: 'budget_unavailable', message: 'The budget service is temporarily unavailable.' });
}
