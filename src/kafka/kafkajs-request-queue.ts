// kafkajs 2.2.4 bug (tulios/kafkajs#1751, #1704; unmerged fixes #1755, #1768): a connection's request
// queue reschedules its pending-request check with `setTimeout(fn, throttledUntil - Date.now())` even
// when nothing is pending, and `throttledUntil` starts at -1, so the delay is about -1.7e12 ms. Node >= 24
// warns (`TimeoutNegativeWarning`) at every start with Kafka, and the check then spins every 1 ms for as
// long as the connection lives. Corrected here at load time, without editing node_modules: with nothing
// pending and no throttle, nothing is scheduled (push() schedules a check whenever it has to queue, and
// each answered request checks again); otherwise exactly what kafkajs scheduled.
import { createRequire } from 'node:module';

/** The kafkajs version this correction was written and tested for; another one is left alone. */
export const CORRECTED_KAFKAJS_VERSION = '2.2.4';
/** kafkajs's own retry interval for a queue with pending requests (requestQueue/index.js). */
const CHECK_PENDING_REQUESTS_INTERVAL = 10;

export interface RequestQueueLike {
  pending: unknown[];
  throttledUntil: number;
  throttleCheckTimeoutId: NodeJS.Timeout | null;
  checkPendingRequests(): void;
  scheduleCheckPendingRequests(): void;
}

export function scheduleCheckPendingRequests(this: RequestQueueLike): void {
  if (this.throttleCheckTimeoutId) return;
  const untilUnthrottled = this.throttledUntil - Date.now();
  if (this.pending.length === 0 && untilUnthrottled <= 0) return;
  const delay = untilUnthrottled > 0 ? untilUnthrottled : CHECK_PENDING_REQUESTS_INTERVAL;
  this.throttleCheckTimeoutId = setTimeout(() => {
    this.throttleCheckTimeoutId = null;
    this.checkPendingRequests();
  }, delay);
}

const load = createRequire(__filename);

/** kafkajs's RequestQueue class (internal module, no exports map in 2.2.4). */
export function kafkajsRequestQueue(): { prototype: RequestQueueLike } & (new (options: object) => RequestQueueLike) {
  return load('kafkajs/src/network/requestQueue');
}

let corrected = false;

/** Idempotent. True when the running kafkajs is the version the correction is for (and it is applied). */
export function correctKafkajsRequestQueue(): boolean {
  if (corrected) return true;
  if ((load('kafkajs/package.json') as { version: string }).version !== CORRECTED_KAFKAJS_VERSION) return false;
  kafkajsRequestQueue().prototype.scheduleCheckPendingRequests = scheduleCheckPendingRequests;
  corrected = true;
  return true;
}
