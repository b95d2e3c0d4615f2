import { ApiError } from '../../common/api-error';
import { MediaSlots, ReleaseSlot } from './media-slots';

const limits = { global: 3, perOrganization: 2, queueLength: 2, waitMs: 60_000 };

/** The promise's state once queued callbacks have run. */
const settled = async <T>(promise: Promise<T>): Promise<{ value?: T; error?: unknown; pending: boolean }> => {
  let state: { value?: T; error?: unknown; pending: boolean } = { pending: true };
  promise.then((value) => (state = { value, pending: false }), (error: unknown) => (state = { error, pending: false }));
  await new Promise((resolve) => setImmediate(resolve));
  return state;
};

describe('media slots', () => {
  afterEach(() => jest.useRealTimers());

  it('runs up to the per-organization cap at once, and queues the next one', async () => {
    const slots = new MediaSlots(limits);
    await slots.acquire('a');
    await slots.acquire('a');
    expect(slots.runningCount('a')).toBe(2);
    const third = slots.acquire('a');
    expect((await settled(third)).pending).toBe(true);
    expect(slots.waitingCount()).toBe(1);
  });

  it('runs up to the global cap across organizations, and queues the next one', async () => {
    const slots = new MediaSlots(limits);
    await slots.acquire('a');
    await slots.acquire('b');
    await slots.acquire('c');
    expect(slots.runningCount()).toBe(3);
    expect((await settled(slots.acquire('d'))).pending).toBe(true);
  });

  it('hands a released slot to the first waiter that fits, skipping one whose organization is full', async () => {
    const slots = new MediaSlots(limits);
    const a1 = await slots.acquire('a');
    await slots.acquire('a');
    const b1 = await slots.acquire('b');
    const waitingA = slots.acquire('a');
    const waitingB = slots.acquire('b');
    b1();
    expect((await settled(waitingA)).pending).toBe(true);
    expect((await settled(waitingB)).pending).toBe(false);
    a1();
    expect((await settled(waitingA)).pending).toBe(false);
    expect(slots.runningCount('a')).toBe(2);
  });

  it('lets an organization with room go ahead of waiters held by their own cap', async () => {
    const slots = new MediaSlots({ ...limits, global: 10 });
    await slots.acquire('a');
    await slots.acquire('a');
    const waitingA = slots.acquire('a');
    expect((await settled(slots.acquire('b'))).pending).toBe(false);
    expect((await settled(waitingA)).pending).toBe(true);
  });

  it('queues up to queueLength and refuses one more at once with 503 media_busy and Retry-After', async () => {
    const slots = new MediaSlots({ ...limits, global: 1, waitMs: 2500 });
    await slots.acquire('a');
    void slots.acquire('b').catch(() => undefined);
    void slots.acquire('c').catch(() => undefined);
    const refused = (await settled(slots.acquire('d'))).error as ApiError;
    expect(refused).toMatchObject({ status: 503, code: 'media_busy', type: 'service_unavailable', headers: { 'retry-after': '3' } });
    expect(slots.waitingCount()).toBe(2);
  });

  it('refuses a waiter when its deadline passes, not a moment before', async () => {
    jest.useFakeTimers();
    const slots = new MediaSlots({ ...limits, global: 1, waitMs: 1000 });
    await slots.acquire('a');
    const waiter = slots.acquire('b');
    const outcome = waiter.then(() => 'granted', (error: ApiError) => error.code);
    jest.advanceTimersByTime(999);
    expect(slots.waitingCount()).toBe(1);
    jest.advanceTimersByTime(1);
    expect(await outcome).toBe('media_busy');
    expect(slots.waitingCount()).toBe(0);
  });

  it('drops a waiter whose client left (499) and frees its queue place', async () => {
    const slots = new MediaSlots({ ...limits, global: 1 });
    await slots.acquire('a');
    const controller = new AbortController();
    const waiter = slots.acquire('b', controller.signal);
    controller.abort();
    expect(((await settled(waiter)).error as ApiError).status).toBe(499);
    expect(slots.waitingCount()).toBe(0);
    const gone = new AbortController();
    gone.abort();
    expect(((await settled(slots.acquire('c', gone.signal))).error as ApiError).status).toBe(499);
  });

  it('a queue of 0 refuses at once when full; releasing twice frees one slot', async () => {
    const slots = new MediaSlots({ ...limits, global: 1, queueLength: 0 });
    const release: ReleaseSlot = await slots.acquire('a');
    expect(((await settled(slots.acquire('b'))).error as ApiError).code).toBe('media_busy');
    release();
    release();
    expect(slots.runningCount()).toBe(0);
    await slots.acquire('b');
    expect(slots.runningCount()).toBe(1);
  });

  it('rejects caps below 1 and fractional limits', () => {
    expect(() => new MediaSlots({ ...limits, global: 0 })).toThrow(RangeError);
    expect(() => new MediaSlots({ ...limits, perOrganization: 1.5 })).toThrow(RangeError);
    expect(() => new MediaSlots({ ...limits, queueLength: -1 })).toThrow(RangeError);
    expect(() => new MediaSlots({ ...limits, queueLength: 0, waitMs: 0 })).not.toThrow();
  });
});
