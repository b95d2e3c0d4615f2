// One request running under a claimed key: it holds the lease (renewed while it runs, so a long stream
// is not taken for a dead claimant) and records its outcome once: the answer kept for replay, or the
// key released when it charged nothing and said "try again".
import type { GatewayLog } from '../common/gateway-log';
import { WrongExpectedRevisionError } from '../event-store/event-store.port';
import { endKeyRunAfter, keyChargeOf, startKeyRun, type KeyCharge } from './charge-once';
import type { IdempotencyKeyClaimedV1 } from './idempotency.events';
import { keyStreamMaxAgeSeconds, type IdempotencySettings } from './idempotency-settings';
import { KeptAnswer, releasesKey } from './kept-answer';
import type { KeyLedger } from './key-ledger';
import type { KeyDecision } from './key-state';
import type { ResponseBodies } from './response-bodies';

export interface KeyRunDeps {
  ledger: KeyLedger;
  bodies: ResponseBodies;
  settings: IdempotencySettings;
  now: () => Date;
  /** Context `idempotency`. */
  log: GatewayLog;
}

export interface ClaimInput {
  streamId: string;
  requestId: string;
  organizationId: string;
  fingerprint: string;
  decision: Extract<KeyDecision, { kind: 'claim' }>;
  coveredBy: KeyCharge | null;
  /** Claimed without reading the stream (a new key's `no_stream` claim): refused if the stream exists at all. */
  unread?: boolean;
}

export class KeyRun {
  private writes: Promise<unknown> = Promise.resolve();
  private renewals = 0;
  private renewer: NodeJS.Timeout | null = null;
  private finished = false;

  private constructor(private readonly deps: KeyRunDeps, private readonly claimed: IdempotencyKeyClaimedV1, readonly streamId: string, private revision: number) {}

  get requestId(): string {
    return this.claimed.requestId;
  }

  /** Rejects with WrongExpectedRevisionError when another request claimed the key first. */
  static async claim(deps: KeyRunDeps, input: ClaimInput): Promise<KeyRun> {
    const claim = claimOf(input, deps.now(), deps.settings.leaseMs);
    const revision = input.unread ? await deps.ledger.claimUnread(input.streamId, claim) : await deps.ledger.claim(input.streamId, claim, input.decision.expectedRevision);
    if (input.decision.fresh) await expireKeyStream(deps, input.streamId);
    startKeyRun(input.requestId, input.coveredBy);
    const run = new KeyRun(deps, claim, input.streamId, revision);
    run.renewer = setInterval(() => run.renew(), Math.max(50, deps.settings.leaseMs / 3)).unref();
    return run;
  }

  stopRenewing(): void {
    if (this.renewer !== null) clearInterval(this.renewer);
    this.renewer = null;
  }

  /**
   * The response is over (its connection closed). A stream cut short bills in its own time after that,
   * and must still see the key's earlier charge, so the run is forgotten one lease later.
   */
  responseClosed(): void {
    this.stopRenewing();
    endKeyRunAfter(this.requestId, this.deps.settings.leaseMs);
  }

  /** `complete`: the whole answer was sent (a stream cut short is recorded, but not kept). */
  async finish(status: number, contentType: string | null, chunks: readonly (Buffer | string | null)[], complete: boolean): Promise<void> {
    if (this.finished) return;
    this.finished = true;
    this.stopRenewing();
    const charge = keyChargeOf(this.requestId);
    await this.serialized(async () => {
      const at = this.deps.now().toISOString();
      if (releasesKey(status, charge !== null)) return this.deps.ledger.release(this.streamId, { requestId: this.requestId, status, releasedAt: at }, this.revision);
      const answer = new KeptAnswer(this.deps.settings.maxResponseBytes);
      for (const chunk of chunks) if (chunk !== null) answer.add(chunk);
      const kept = complete ? answer.kept() : null;
      if (kept !== null) await this.deps.bodies.keep(this.streamId, this.requestId, kept);
      await this.deps.ledger.record(this.streamId, {
        requestId: this.requestId,
        status,
        contentType,
        kept: kept !== null,
        size: answer.size,
        chunkCount: kept?.length ?? 0,
        chargedRequestId: charge?.requestId ?? null,
        costUsdMicros: charge?.costUsdMicros ?? null,
        recordedAt: at,
      }, this.revision);
    });
  }

  private renew(): void {
    void this.serialized(async () => {
      if (this.finished) return;
      const leaseExpiresAt = new Date(this.deps.now().getTime() + this.deps.settings.leaseMs).toISOString();
      this.revision = await this.deps.ledger.claim(this.streamId, { ...this.claimed, leaseExpiresAt }, this.revision, ++this.renewals);
    });
  }

  /** Writes one at a time, each at the revision the last one left; a lost lease is logged, not thrown. */
  private serialized(write: () => Promise<void>): Promise<void> {
    const next = this.writes.then(write).catch((error: unknown) => {
      if (!(error instanceof WrongExpectedRevisionError)) throw error;
      this.stopRenewing();
      this.deps.log.warn({ requestId: this.requestId, streamId: this.streamId }, 'idempotency key claimed by another request after this lease expired');
    });
    this.writes = next.catch(() => undefined);
    return next;
  }
}

/**
 * Each new life of a key (re)sets its stream's `$maxAge` where the store has it, so a metadata write lost
 * once is made good by the key's next life. A failure is logged, not answered: the claim stands, and the
 * key's events are then kept like every event on SQLite (the retention still forgets the key).
 */
async function expireKeyStream(deps: KeyRunDeps, streamId: string): Promise<void> {
  if (!deps.ledger.expiresStreams) return;
  await deps.ledger.expireAfter(streamId, keyStreamMaxAgeSeconds(deps.settings)).catch((error: unknown) => deps.log.warn({ err: error, streamId }, 'setting $maxAge on an idempotency key stream failed'));
}

function claimOf(input: ClaimInput, now: Date, leaseMs: number): IdempotencyKeyClaimedV1 {
  return {
    requestId: input.requestId,
    organizationId: input.organizationId,
    fingerprint: input.fingerprint,
    claimedAt: now.toISOString(),
    leaseExpiresAt: new Date(now.getTime() + leaseMs).toISOString(),
    fresh: input.decision.fresh,
    chargedRequestId: input.coveredBy?.requestId ?? null,
    costUsdMicros: input.coveredBy?.costUsdMicros ?? null,
  };
}
