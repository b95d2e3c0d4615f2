// Events of an idempotency key's own stream, `idempotency-<organizationId>-<sha256(key) hex>`
// (docs/idempotency.md). The raw key is never stored: only its hash, in the stream name.

/** A request claimed the key (the first with expected revision `no_stream`: one claimant, whatever the replicas). */
export interface IdempotencyKeyClaimedV1 {
  requestId: string;
  organizationId: string;
  /** sha256 hex of method, path and the canonical body (fingerprint.ts). */
  fingerprint: string;
  claimedAt: string;
  /** Past this instant with no outcome recorded, the claimant is taken as dead and the key may be claimed again. */
  leaseExpiresAt: string;
  /** The key starts a new life: first use, or its last answer is past the retention (earlier charges no longer bind it). */
  fresh: boolean;
  /** A dead earlier claimant's charge, found when this claim was made: this request is then not charged again. */
  chargedRequestId: string | null;
  costUsdMicros: number | null;
}

/** The claimant's answer, kept for replay (a charged answer or a 4xx that reached validation). */
export interface IdempotentResponseRecordedV1 {
  requestId: string;
  status: number;
  contentType: string | null;
  /** Whether the body was kept (false past the configured bound: a replay is then 409). */
  kept: boolean;
  /** Bytes sent to the client. */
  size: number;
  /** Chunks as sent (one for a plain answer, the sequence of frames for a stream); the bytes live in the body store. */
  chunkCount: number;
  /** The request that carries the key's one charge, and its cost (null when nothing was charged). */
  chargedRequestId: string | null;
  costUsdMicros: number | null;
  recordedAt: string;
}

/** An answer that charged nothing and said "try again" (429, 503, 5xx): the next request runs afresh. */
export interface IdempotencyKeyReleasedV1 {
  requestId: string;
  status: number;
  releasedAt: string;
}

export type IdempotencyEventType = 'IdempotencyKeyClaimed' | 'IdempotentResponseRecorded' | 'IdempotencyKeyReleased';
