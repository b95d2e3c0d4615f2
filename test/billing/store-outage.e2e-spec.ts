// The event store stops writing while chat streams are in flight. Every stream still delivers its
// whole answer and a normal end (usage chunk, [DONE]); its usage waits in the billing spool and
// reaches the store once it writes again - exactly once, also across a restart on the same data dir.
// During the outage new requests get 503 billing_unavailable before any upstream call, and /readyz is 503.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CostPricedV1, UsageMeasuredV1 } from '../../src/billing/billing.events';
import { SqliteEventStore } from '../../src/event-store/sqlite/sqlite-event-store';
import { FaultyEventStore } from '../support/faulty-event-store';
import { startTestGateway, type TestGateway } from '../support/test-gateway';

jest.setTimeout(60_000);
const STREAMS = 12;

interface OpenStream {
  requestId: string;
  /** Everything the client received, once the stream has ended. */
  text: Promise<string>;
}

async function until<T>(probe: () => Promise<T | undefined>, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Opens a slow stream and resolves once its first content chunk has arrived. */
async function openStream(gw: TestGateway): Promise<OpenStream> {
  const res = await gw.postJson('/v1/chat/completions', {
    model: 'aria',
    messages: [{ role: 'user', content: 'Tell me a long story' }],
    stream: true,
    stream_options: { include_usage: true },
    max_tokens: 60,
  });
  expect(res.status).toBe(200);
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let received = '';
  while (!received.includes('"content"')) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`stream ended before any content: ${received}`);
    received += decoder.decode(value, { stream: true });
  }
  const rest = async () => {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return received;
      received += decoder.decode(value, { stream: true });
    }
  };
  return { requestId: res.headers.get('x-request-id')!, text: rest() };
}

/** How many UsageMeasured and CostPriced events the store holds for each request id. */
async function billedTimes(gw: TestGateway, requestIds: string[]): Promise<Array<[number, number]>> {
  const usage = (await gw.events('UsageMeasured')).map((e) => (e.data as UsageMeasuredV1).requestId);
  const cost = (await gw.events('CostPriced')).map((e) => (e.data as CostPricedV1).requestId);
  return requestIds.map((id) => [usage.filter((u) => u === id).length, cost.filter((c) => c === id).length]);
}

async function readyz(gw: TestGateway): Promise<{ status: number; body: { checks: Record<string, boolean>; spool: Record<string, number | boolean> } }> {
  const res = await fetch(`${gw.baseUrl}/readyz`);
  return { status: res.status, body: (await res.json()) as never };
}

function expectNormalEnd(text: string): void {
  expect(text).not.toContain('"error"');
  expect(text).toContain('"usage"');
  expect(text.trimEnd().endsWith('data: [DONE]')).toBe(true);
}

describe('billing during an event-store outage', () => {
  let dataDir: string;
  let store: FaultyEventStore;
  const start = (faulty: boolean) =>
    startTestGateway({
      dataDir,
      configure: (config) => (config.organizations[0].rate_limit = { requests: 10_000, window_seconds: 60 }),
      overrides: faulty ? async (dir) => ({ eventStore: (store = new FaultyEventStore(await SqliteEventStore.open(dir))) }) : undefined,
    });
  beforeEach(() => (dataDir = mkdtempSync(join(tmpdir(), 'gw-outage-'))));
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

  /** Streams in flight when the store fails; resolves with their ids once every one has ended. */
  async function streamsThroughOutage(gw: TestGateway): Promise<string[]> {
    gw.simulator.control.set('aria', { kind: 'quirk', name: 'long_answer' });
    const streams = await Promise.all(Array.from({ length: STREAMS }, () => openStream(gw)));
    store.failing.add('*');
    const texts = await Promise.all(streams.map((s) => s.text));
    for (const text of texts) expectNormalEnd(text);
    return streams.map((s) => s.requestId);
  }

  async function expectRefusedWithoutUpstream(gw: TestGateway): Promise<void> {
    const upstreamCalls = gw.simulator.control.received((r) => r.path === '/v1/chat/completions').length;
    const res = await gw.postJson('/v1/chat/completions', { model: 'aria', messages: [{ role: 'user', content: 'hi' }], stream: true });
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('1');
    expect(((await res.json()) as { error: unknown }).error).toMatchObject({ code: 'billing_unavailable', type: 'service_unavailable' });
    expect(gw.simulator.control.received((r) => r.path === '/v1/chat/completions').length).toBe(upstreamCalls);
  }

  it('spools every delivered stream, refuses new ones, and bills each exactly once after recovery', async () => {
    const gw = await start(true);
    try {
      const ids = await streamsThroughOutage(gw);
      expect(await billedTimes(gw, ids)).toEqual(ids.map(() => [0, 0]));
      const during = await readyz(gw);
      console.log(`during the outage: /readyz ${during.status}, spool ${JSON.stringify(during.body.spool)}`);
      expect(during.status).toBe(503);
      expect(during.body.checks.event_store_writes).toBe(false);
      expect(during.body.spool).toMatchObject({ spooled: STREAMS, pending: STREAMS, drained: 0 });
      await expectRefusedWithoutUpstream(gw);

      store.failing.clear();
      const after = await until(async () => {
        // Until issue 26 item 7 lands elsewhere, the cost projection is ready only after a first cost query.
        await fetch(`${gw.baseUrl}/v1/organization/costs?start_time=0`, { headers: { authorization: `Bearer ${gw.apiKey}` } });
        const r = await readyz(gw);
        return r.status === 200 && r.body.spool.pending === 0 ? r : undefined;
      });
      console.log(`after recovery: /readyz ${after.status}, spool ${JSON.stringify(after.body.spool)}`);
      expect(after.body.spool).toMatchObject({ spooled: STREAMS, drained: STREAMS, pending: 0, used_bytes: 0 });
      expect(await billedTimes(gw, ids)).toEqual(ids.map(() => [1, 1]));
      const res = await gw.postJson('/v1/chat/completions', { model: 'aria', messages: [{ role: 'user', content: 'hi' }] });
      expect(res.status).toBe(200);
    } finally {
      await gw.close();
    }
  });

  it('spools a speech stream delivered during the outage: its done event carries the usage, billed once after recovery', async () => {
    const gw = await start(true);
    try {
      const input = 'Each sentence of this long text is spoken in turn. '.repeat(400);
      const res = await gw.postJson('/v1/audio/speech', { model: 'chorus', voice: 'aiden', input, stream_format: 'sse' });
      expect(res.status).toBe(200);
      const reader = res.body!.getReader();
      const first = await reader.read();
      expect(first.done).toBe(false);
      store.failing.add('*');
      let text = new TextDecoder().decode(first.value);
      for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) text += new TextDecoder().decode(chunk.value);
      const done = text.split('\n\n').filter(Boolean).map((e) => JSON.parse(e.slice(6)) as { type: string; usage?: { input: { text: { characters: number } } } }).pop();
      expect(done).toMatchObject({ type: 'speech.audio.done', usage: { input: { text: { characters: input.length } } } });
      const requestId = res.headers.get('x-request-id')!;
      expect((await readyz(gw)).body.spool).toMatchObject({ spooled: 1, pending: 1 });
      store.failing.clear();
      await until(async () => ((await readyz(gw)).body.spool.pending === 0 ? true : undefined));
      expect(await billedTimes(gw, [requestId])).toEqual([[1, 1]]);
      const usage = (await gw.events('UsageMeasured')).find((e) => (e.data as UsageMeasuredV1).requestId === requestId)!.data as UsageMeasuredV1;
      expect(usage.input.text.characters).toBe(input.length);
    } finally {
      await gw.close();
    }
  });

  it('keeps the spool across a restart on the same data dir and drains it at the next start', async () => {
    const first = await start(true);
    let ids: string[];
    try {
      ids = await streamsThroughOutage(first);
      expect((await readyz(first)).body.spool).toMatchObject({ pending: STREAMS });
    } finally {
      await first.close(); // still failing: shutdown cannot drain, the records stay in the file
    }
    const second = await start(false);
    try {
      const counts = (await readyz(second)).body.spool;
      console.log(`after restart: spool ${JSON.stringify(counts)}`);
      expect(counts).toMatchObject({ drained: STREAMS, pending: 0 });
      expect(await billedTimes(second, ids)).toEqual(ids.map(() => [1, 1]));
    } finally {
      await second.close();
    }
    const third = await start(false);
    try {
      expect((await readyz(third)).body.spool).toMatchObject({ drained: 0, pending: 0 });
      expect(await billedTimes(third, ids)).toEqual(ids.map(() => [1, 1]));
    } finally {
      await third.close();
    }
  });
});
