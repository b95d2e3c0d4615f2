// What is kept and for how long (docs/idempotency.md): an answer past the size bound is not kept (its
// replay is 409 naming the request and its cost), and past the retention the key is forgotten: it may
// be used again, for any body, and the sweeper deletes the recorded bodies.
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { startTestGateway, TestGateway } from '../support/test-gateway';
import { Agent } from 'undici';
import { eventually, postChat } from '../chat/chat-test-helpers';

const CHAT = { model: 'aria', messages: [{ role: 'user', content: 'Say hello to the gateway.' }] };
const SETTINGS = { GATEWAY_IDEMPOTENCY_RETENTION_SECONDS: '1', GATEWAY_IDEMPOTENCY_SWEEP_SECONDS: '0.2', GATEWAY_IDEMPOTENCY_MAX_RESPONSE_BYTES: '300' };

describe('Idempotency-Key retention and size bound', () => {
  jest.setTimeout(60_000);
  let gw: TestGateway;
  const saved: Record<string, string | undefined> = {};
  beforeAll(async () => {
    for (const [name, value] of Object.entries(SETTINGS)) {
      saved[name] = process.env[name];
      process.env[name] = value;
    }
    gw = await startTestGateway();
  });
  afterAll(async () => {
    await gw?.close();
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  });

  /** The requests whose answers are kept in the data directory's bodies database. */
  const keptRequests = (): string[] => {
    const db = new Database(join(gw.dataDir, 'idempotency-responses.sqlite'), { readonly: true, fileMustExist: true });
    try {
      return db.prepare('SELECT request_id FROM kept_answers').pluck().all() as string[];
    } finally {
      db.close();
    }
  };

  it('does not keep an answer past the bound: the replay is 409 idempotent_response_not_kept naming the request and its cost', async () => {
    const first = await postChat(gw, CHAT, { 'idempotency-key': 'large-1' });
    expect(first.status).toBe(200);
    expect(Buffer.byteLength(first.text)).toBeGreaterThan(300);
    const replay = await eventually(async () => {
      const answer = await postChat(gw, CHAT, { 'idempotency-key': 'large-1' });
      expect(answer.status).toBe(409);
      return answer;
    });
    expect(replay.body.error).toMatchObject({ code: 'idempotent_response_not_kept', type: 'invalid_request_error', param: 'Idempotency-Key' });
    expect(replay.body.error.message).toContain(first.headers.get('x-request-id'));
    expect(replay.body.error.message).toMatch(/a charge of \d+ USD micros/);
  });

  it('charges a key again past the retention: its new life carries its own charge, not the old one', async () => {
    const small = { model: 'aria', messages: [{ role: 'user', content: 'y' }], max_completion_tokens: 1 };
    const charged = async (requestId: string | null) => (await gw.events('CostPriced')).filter((event) => (event.data as any).requestId === requestId).length;
    const first = await postChat(gw, small, { 'idempotency-key': 'charged-twice-1' });
    expect(first.status).toBe(200);
    await eventually(async () => expect(await charged(first.headers.get('x-request-id'))).toBe(1));
    const again = await eventually(async () => {
      // 409 not kept (the answer is past this suite's 300-byte bound) until the retention ends.
      const answer = await postChat(gw, small, { 'idempotency-key': 'charged-twice-1' });
      expect(answer.status).toBe(200);
      return answer;
    }, 30_000);
    expect(again.headers.get('idempotent-replayed')).toBeNull();
    expect(again.headers.get('x-request-id')).not.toBe(first.headers.get('x-request-id'));
    await eventually(async () => expect(await charged(again.headers.get('x-request-id'))).toBe(1));
  });

  it('forgets a key past the retention: the key runs again (another body too) and the kept body is swept', async () => {
    const small = { model: 'aria', messages: [{ role: 'user', content: 'x' }], max_completion_tokens: 1 };
    const invalid = { model: 'aria', messages: [] };
    // A 422 is small enough to keep; it is the key's recorded answer until the retention ends.
    const first = await postChat(gw, invalid, { 'idempotency-key': 'expiring-1' });
    expect(first.status).toBe(422);
    console.log(`kept 422: ${Buffer.byteLength(first.text)} bytes (bound 300)`);
    await eventually(async () => expect(keptRequests()).toEqual([first.headers.get('x-request-id')]));
    // Once forgotten, the same key with another body is a new request, not 422 reused.
    const again = await eventually(async () => {
      const answer = await postChat(gw, small, { 'idempotency-key': 'expiring-1' });
      expect(answer.body?.error?.code).not.toBe('idempotency_key_reused');
      return answer;
    }, 30_000);
    expect(again.headers.get('idempotent-replayed')).toBeNull();
    await eventually(async () => expect(keptRequests()).not.toContain(first.headers.get('x-request-id')), 30_000);
  });
});

describe('Idempotency-Key lease', () => {
  jest.setTimeout(60_000);
  const agent = new Agent();
  let gw: TestGateway;
  let saved: string | undefined;
  beforeAll(async () => {
    saved = process.env.GATEWAY_IDEMPOTENCY_LEASE_SECONDS;
    process.env.GATEWAY_IDEMPOTENCY_LEASE_SECONDS = '0.3';
    gw = await startTestGateway();
  });
  afterAll(async () => {
    // This test's own connections first: a socket its client opened and never used would hold the close.
    await agent.destroy();
    await gw?.close();
    if (saved === undefined) delete process.env.GATEWAY_IDEMPOTENCY_LEASE_SECONDS;
    else process.env.GATEWAY_IDEMPOTENCY_LEASE_SECONDS = saved;
  });

  const post = (body: unknown, signal?: AbortSignal) =>
    fetch(`${gw.baseUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${gw.apiKey}`, 'content-type': 'application/json', 'idempotency-key': 'long-1' },
      body: JSON.stringify(body),
      signal,
      dispatcher: agent,
    } as unknown as RequestInit);

  it('is renewed while a long stream runs (the duplicate stays 409 in use), and a stream cut short is recorded not kept', async () => {
    gw.simulator.control.set('aria', { kind: 'quirk', name: 'long_answer' });
    const body = { model: 'aria', messages: [{ role: 'user', content: 'Tell me a long story.' }], stream: true };
    const abort = new AbortController();
    const res = await post(body, abort.signal);
    const requestId = res.headers.get('x-request-id');
    const reader = res.body!.getReader();
    const claims = async () => (await gw.events('IdempotencyKeyClaimed')).filter((event) => (event.data as any).requestId === requestId).length;
    // Three renewals: the stream has outlived its first lease several times over.
    await eventually(async () => {
      await reader.read();
      expect(await claims()).toBeGreaterThanOrEqual(4);
    }, 30_000);
    const duplicate = await post(body);
    expect(duplicate.status).toBe(409);
    expect(((await duplicate.json()) as any).error.code).toBe('idempotency_key_in_use');
    abort.abort();
    const replay = await eventually(async () => {
      const answer = await post(body);
      const error = ((await answer.json()) as any).error;
      expect(error.code).toBe('idempotent_response_not_kept');
      return { status: answer.status, error };
    }, 30_000);
    expect(replay.status).toBe(409);
    expect(replay.error.message).toContain(requestId);
  });
});
