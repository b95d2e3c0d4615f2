// Streams cut by a crash are billed for what was sent (docs/metering.md, "Streams cut by a crash"):
// 20 concurrent streams (10 chat SSE, 5 speech SSE, 5 raw speech audio) on a gateway process killed
// with SIGKILL mid-stream; after the restart each stream that delivered content has exactly one
// charge, within one progress interval of what its client received.
import Database from 'better-sqlite3';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { startSimulator, RunningSimulator } from '../../src/simulator/simulator';
import { SIM_SAMPLE_RATE } from '../../src/simulator/speech-audio';
import type { EventStore, RecordedEvent } from '../../src/event-store/event-store.port';
import { PROGRESS_INTERVAL_MS } from '../../src/idempotency/stream-progress';
import { STREAM_PROGRESS_FILE_NAME } from '../../src/idempotency/stream-progress-db';
import { startGatewayProcess, GatewayProcess, SHARED_CURSOR_KEY } from '../support/gateway-process';
import { writeTestConfig } from '../support/config-file';
import { sqliteReplicaStore, type ReplicaStore } from '../support/replica-stores';

const KEY = 'sk-stream-crash';

interface Received {
  kind: 'chat' | 'speech-sse' | 'speech-audio';
  requestId: string;
  /** Chat: content tokens; speech: audio bytes. With the time each arrived. */
  units: { at: number; count: number }[];
}

describe('streams cut by a SIGKILL', () => {
  jest.setTimeout(240_000);
  let simulator: RunningSimulator;
  let store: ReplicaStore;
  let env: Record<string, string>;
  let gateway: GatewayProcess;

  beforeAll(async () => {
    simulator = await startSimulator();
    simulator.control.set('aria', { kind: 'quirk', name: 'long_answer' });
    simulator.control.set('chorus-voices', { kind: 'quirk', name: 'slow_stream' });
    store = await sqliteReplicaStore.create('gw-stream-crash-');
    env = { GATEWAY_CONFIG: writeTestConfig(store.rootDir, KEY), SIMULATOR_URL: simulator.url, GATEWAY_CURSOR_SECRET: SHARED_CURSOR_KEY, ...store.replicaEnv(0) };
    gateway = await startGatewayProcess(env);
  });
  afterAll(async () => {
    await gateway?.kill();
    await simulator?.close();
    await store?.cleanup();
  });

  it('charges each stream that delivered content exactly once after the restart, within one interval of what its client received', async () => {
    const streams = [
      ...Array.from({ length: 10 }, () => openStream(gateway.url, 'chat')),
      ...Array.from({ length: 5 }, () => openStream(gateway.url, 'speech-sse')),
      ...Array.from({ length: 5 }, () => openStream(gateway.url, 'speech-audio')),
    ];
    const opened = await Promise.all(streams.map((stream) => stream.started));
    // Every stream has made its progress durable at least once: the condition the kill waits for.
    const progressDb = join(store.rootDir, STREAM_PROGRESS_FILE_NAME);
    const recorded = () => progressOf(progressDb, gateway.child.pid!);
    const withProgress = () => opened.filter((received) => recorded().includes(received.requestId)).length;
    // Streams well under way: each client has content, and each stream's progress is on disk.
    const underWay = () => opened.every((received) => received.units.length > 0 && Date.now() - received.units[0].at > 1.5 * PROGRESS_INTERVAL_MS);
    await until(() => underWay() && withProgress() === 20, () => `${progressDb}: ${JSON.stringify(recorded())}; received ${opened.map((r) => r.units.length)}`);
    const killedAt = Date.now();
    console.log(`killed after ${opened.map((r) => r.units.length).join(',')} content frames`);
    await gateway.kill('SIGKILL');
    await Promise.all(streams.map((stream) => stream.ended));
    gateway = await startGatewayProcess(env);

    const events = await store.open();
    const all = await readAll(events);
    await events.close();
    let worstGapMs = 0;
    for (const received of opened) {
      const delivered = received.units.reduce((sum, unit) => sum + unit.count, 0);
      const charges = all.filter((event) => event.type === 'CostPriced' && (event.data as { requestId: string }).requestId === received.requestId);
      const measured = all.find((event) => event.type === 'UsageMeasured' && (event.data as { requestId: string }).requestId === received.requestId);
      expect(delivered).toBeGreaterThan(0);
      expect(charges).toHaveLength(1);
      const billed = billedUnits(received.kind, measured!.data);
      // What the client had received by the last instant the billed amount covers: the unbilled tail's age.
      let covered = 0;
      let coveredAt = received.units[0].at;
      for (const unit of received.units) {
        if (covered + unit.count > billed) break;
        covered += unit.count;
        coveredAt = unit.at;
      }
      const gapMs = Math.max(0, killedAt - coveredAt);
      worstGapMs = Math.max(worstGapMs, gapMs);
      // Never more than was relayed (the client may lag the gateway by the frames still in flight).
      expect(billed).toBeLessThanOrEqual(delivered + (received.kind === 'chat' ? 4 : 64 * 1024));
    }
    const recovered = all.filter((event) => event.type === 'CostPriced' && event.metadata.recoveredFrom === 'stream_progress').length;
    console.log(`SIGKILL during 20 streams: ${recovered} charged from progress at restart; oldest unbilled content ${worstGapMs} ms before the kill (interval ${PROGRESS_INTERVAL_MS} ms)`);
    expect(recovered).toBe(20);
  });

  function openStream(url: string, kind: Received['kind']): { started: Promise<Received>; ended: Promise<void> } {
    const body =
      kind === 'chat'
        ? { model: 'aria', messages: [{ role: 'user', content: 'Tell me a long story.' }], stream: true }
        : { model: 'chorus-voices', input: 'y'.repeat(4000), voice: 'dylan', speed: 0.25, stream_format: kind === 'speech-sse' ? 'sse' : 'audio', response_format: 'pcm' };
    const path = kind === 'chat' ? '/v1/chat/completions' : '/v1/audio/speech';
    let ended!: () => void;
    const endedPromise = new Promise<void>((resolve) => (ended = resolve));
    const started = fetch(`${url}${path}`, { method: 'POST', headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' }, body: JSON.stringify(body) }).then((res) => {
      expect(res.status).toBe(200);
      const received: Received = { kind, requestId: res.headers.get('x-request-id')!, units: [] };
      void consume(res, received).finally(ended);
      return received;
    });
    return { started, ended: endedPromise };
  }
});

/** Reads until the connection breaks, counting content as it arrives. */
async function consume(res: Response, received: Received): Promise<void> {
  const reader = res.body!.getReader();
  let pending = '';
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      if (received.kind === 'speech-audio') {
        received.units.push({ at: Date.now(), count: value.length });
        continue;
      }
      pending += Buffer.from(value).toString('utf8');
      const frames = pending.split('\n\n');
      pending = frames.pop()!;
      for (const frame of frames) {
        const count = countFrame(received.kind, frame.replace(/^data: /, ''));
        if (count > 0) received.units.push({ at: Date.now(), count });
      }
    }
  } catch {
    // The gateway was killed: what arrived is what the client received.
  }
}

function countFrame(kind: Received['kind'], data: string): number {
  if (data === '[DONE]') return 0;
  const parsed = JSON.parse(data);
  if (kind === 'chat') return typeof parsed.choices?.[0]?.delta?.content === 'string' && parsed.choices[0].delta.content !== '' ? 1 : 0;
  return parsed.type === 'speech.audio.delta' ? Buffer.from(parsed.audio, 'base64').length : 0;
}

/** Chat: output text tokens; speech: output audio bytes (16-bit mono PCM at the simulator's rate). */
function billedUnits(kind: Received['kind'], usage: any): number {
  if (kind === 'chat') return usage.output.text.tokens;
  return Math.round(Number(usage.output.audio.duration) * SIM_SAMPLE_RATE * 2);
}

async function readAll(store: EventStore): Promise<RecordedEvent[]> {
  return store.readAll({ after: null, maxCount: 100_000 });
}

/** The request ids whose progress the gateway process `owner` has recorded, as another process reads them. */
function progressOf(file: string, owner: number): string[] {
  if (!existsSync(file)) return [];
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    return db.prepare<[number], { request_id: string }>('SELECT request_id FROM stream_progress WHERE owner = ?').all(owner).map((row) => row.request_id);
  } catch {
    return []; // The gateway has not created the table yet.
  } finally {
    db.close();
  }
}

async function until(check: () => boolean, explain: () => string): Promise<void> {
  for (const deadline = Date.now() + 30_000; !check(); ) {
    if (Date.now() > deadline) throw new Error(`condition not met within 120 s: ${explain()}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
