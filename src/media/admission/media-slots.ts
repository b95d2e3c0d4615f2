// How many ffmpeg/ffprobe processes run at once: a gateway-wide cap (the machine's cores and memory)
// and a per-organization cap (one tenant cannot take every slot). A process that finds no slot waits
// in a short queue; past the queue's length or its deadline the request is refused with 503
// `media_busy` and Retry-After, rather than piling decoders onto a saturated machine.
import { ApiError } from '../../common/api-error';

export interface MediaSlotLimits {
  /** Media processes running at once across the gateway. */
  global: number;
  /** Media processes running at once for one organization. */
  perOrganization: number;
  /** Processes waiting for a slot at once; one more is refused at once. */
  queueLength: number;
  /** How long a process waits for a slot before its request is refused. */
  waitMs: number;
}

/** Gives the slot back; calling it again does nothing. */
export type ReleaseSlot = () => void;

export class MediaBusyError extends ApiError {
  constructor(reason: string, retryAfterSeconds: number) {
    super(503, 'media_busy', `Media processing is at capacity (${reason}); retry after ${retryAfterSeconds} s.`, 'service_unavailable', null, {
      'retry-after': String(retryAfterSeconds),
    });
  }
}

export class MediaAbortedError extends ApiError {
  constructor() {
    super(499, 'client_closed_request', 'The client closed the request.', 'invalid_request_error');
  }
}

interface Waiter {
  organizationId: string;
  grant: (release: ReleaseSlot) => void;
  refuse: (error: Error) => void;
}

export class MediaSlots {
  private running = 0;
  private readonly runningByOrganization = new Map<string, number>();
  private readonly waiting: Waiter[] = [];

  constructor(readonly limits: MediaSlotLimits) {
    for (const [name, value] of Object.entries(limits)) {
      if (!Number.isSafeInteger(value) || value < (name === 'global' || name === 'perOrganization' ? 1 : 0)) {
        throw new RangeError(`media slot limit ${name} must be a whole number (at least 1 for the caps); got ${value}`);
      }
    }
  }

  /** Resolves with a release once a slot is free; rejects with MediaBusyError, or MediaAbortedError when `signal` fires first. */
  acquire(organizationId: string, signal?: AbortSignal): Promise<ReleaseSlot> {
    if (signal?.aborted) return Promise.reject(new MediaAbortedError());
    // Every waiter lacks room (waiters are granted as soon as a slot fits them), so one that fits goes first.
    if (this.hasRoom(organizationId)) return Promise.resolve(this.take(organizationId));
    if (this.waiting.length >= this.limits.queueLength) return Promise.reject(this.busy('queue full'));
    return new Promise<ReleaseSlot>((resolve, reject) => {
      const settle = (): void => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        const index = this.waiting.indexOf(waiter);
        if (index >= 0) this.waiting.splice(index, 1);
      };
      const waiter: Waiter = {
        organizationId,
        grant: (release) => {
          settle();
          resolve(release);
        },
        refuse: (error) => {
          settle();
          reject(error);
        },
      };
      const onAbort = (): void => waiter.refuse(new MediaAbortedError());
      const timer = setTimeout(() => waiter.refuse(this.busy(`no slot within ${this.limits.waitMs} ms`)), this.limits.waitMs);
      // A waiter never keeps the process alive on its own (shutdown, tests).
      timer.unref();
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiting.push(waiter);
    });
  }

  /** Processes running now: all, and of one organization. */
  runningCount(organizationId?: string): number {
    return organizationId === undefined ? this.running : (this.runningByOrganization.get(organizationId) ?? 0);
  }

  waitingCount(): number {
    return this.waiting.length;
  }

  private hasRoom(organizationId: string): boolean {
    return this.running < this.limits.global && this.runningCount(organizationId) < this.limits.perOrganization;
  }

  private take(organizationId: string): ReleaseSlot {
    this.running += 1;
    this.runningByOrganization.set(organizationId, this.runningCount(organizationId) + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.running -= 1;
      const left = this.runningCount(organizationId) - 1;
      if (left === 0) this.runningByOrganization.delete(organizationId);
      else this.runningByOrganization.set(organizationId, left);
      this.grantWaiting();
    };
  }

  /** First come, first served, skipping a waiter whose organization is at its own cap. */
  private grantWaiting(): void {
    for (let index = 0; index < this.waiting.length && this.running < this.limits.global; ) {
      const waiter = this.waiting[index];
      if (this.hasRoom(waiter.organizationId)) waiter.grant(this.take(waiter.organizationId));
      else index += 1;
    }
  }

  private busy(reason: string): MediaBusyError {
    return new MediaBusyError(reason, Math.max(1, Math.ceil(this.limits.waitMs / 1000)));
  }
}
