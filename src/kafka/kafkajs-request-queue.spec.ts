// kafkajs 2.2.4's request queue scheduled its check with a negative delay (TimeoutNegativeWarning at
// every start with Kafka on Node >= 24, then a 1 ms spin). Shown on kafkajs's own RequestQueue: its
// original method warns, the corrected one schedules nothing when nothing waits and keeps kafkajs's
// delays otherwise.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { correctKafkajsRequestQueue, kafkajsRequestQueue, type RequestQueueLike } from './kafkajs-request-queue';

const silent = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };
const original = kafkajsRequestQueue().prototype.scheduleCheckPendingRequests;

function newQueue(): RequestQueueLike & { destroy(): void } {
  const RequestQueue = kafkajsRequestQueue();
  return new RequestQueue({ instrumentationEmitter: null, maxInFlightRequests: null, requestTimeout: 30_000, enforceRequestTimeout: true, clientId: 'test', broker: 'b:1', logger: silent, isConnected: () => true }) as never;
}

/**
 * The warnings a fresh Node process emits when an idle kafkajs queue runs its check (as after a
 * connection's first answered request). A child process: jest's sandbox does not see Node's warnings.
 */
function warningsInNode(corrected: boolean): string[] {
  const script = `
    const warnings = [];
    process.removeAllListeners('warning');
    process.on('warning', (w) => warnings.push(w.name));
    if (${corrected}) require('./src/kafka/kafkajs-request-queue').correctKafkajsRequestQueue();
    const RequestQueue = require('kafkajs/src/network/requestQueue');
    const silent = { debug() {}, info() {}, warn() {}, error() {} };
    const queue = new RequestQueue({ requestTimeout: 30000, enforceRequestTimeout: true, clientId: 't', broker: 'b:1', logger: silent });
    queue.checkPendingRequests();
    setImmediate(() => setImmediate(() => { queue.destroy(); console.log(JSON.stringify(warnings)); }));`;
  const out = execFileSync(process.execPath, ['-r', 'ts-node/register/transpile-only', '-e', script], { cwd: join(__dirname, '..', '..'), encoding: 'utf8' });
  return JSON.parse(out.trim().split('\n').pop()!) as string[];
}

describe('kafkajs request queue correction', () => {
  it('kafkajs 2.2.4 itself warns TimeoutNegativeWarning on an idle queue; corrected, no warning', () => {
    const before = warningsInNode(false);
    const after = warningsInNode(true);
    console.log(`idle kafkajs queue check: warnings as shipped ${JSON.stringify(before)}, corrected ${JSON.stringify(after)}`);
    expect(before).toContain('TimeoutNegativeWarning');
    expect(after).toEqual([]);
  });

  it('kafkajs 2.2.4 itself schedules an idle queue\'s check with a negative delay; corrected, it schedules nothing', () => {
    const delays: number[] = [];
    const spy = jest.spyOn(global, 'setTimeout').mockImplementation(((_fn: () => void, ms: number) => (delays.push(ms), null)) as never);
    try {
      const shipped = newQueue();
      original.call(shipped);
      expect(delays).toHaveLength(1);
      expect(delays[0]).toBeLessThan(0);
      expect(correctKafkajsRequestQueue()).toBe(true);
      const queue = newQueue();
      queue.scheduleCheckPendingRequests();
      queue.checkPendingRequests(); // what each answered request runs: no loop starts either
      expect(delays).toHaveLength(1);
      expect(queue.throttleCheckTimeoutId).toBeNull();
    } finally {
      spy.mockRestore();
    }
  });

  it('corrected: a queue with pending requests or under a throttle is still checked, after kafkajs\'s delays', async () => {
    correctKafkajsRequestQueue();
    const scheduled: number[] = [];
    const spy = jest.spyOn(global, 'setTimeout').mockImplementation(((fn: () => void, ms: number) => (scheduled.push(ms), { ref: () => undefined, unref: () => undefined }) as never) as never);
    try {
      const pending = newQueue();
      pending.pending.push({});
      pending.scheduleCheckPendingRequests();
      const throttled = newQueue();
      throttled.throttledUntil = Date.now() + 5_000;
      throttled.scheduleCheckPendingRequests();
      expect(scheduled[0]).toBe(10);
      expect(scheduled[1]).toBeGreaterThan(4_000);
      expect(scheduled[1]).toBeLessThanOrEqual(5_000);
    } finally {
      spy.mockRestore();
    }
  });
});
