// What is kept and for how long (docs/idempotency.md): an answer past the size bound is not kept (its
// replay is 409 naming the request and its cost), and past the retention the key is forgotten: it may
// be used again, for any body, and the sweeper deletes the recorded bodies.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { startTestGateway, TestGateway } from '../support/test-gateway';
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

  const bodiesDir = () => join(gw.dataDir, 'idempotency-responses');

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

  it('forgets a key past the retention: the key runs again (another body too) and the kept body is swept', async () => {
    const small = { model: 'aria', messages: [{ role: 'user', content: 'x' }], max_completion_tokens: 1 };
    const invalid = { model: 'aria', messages: [] };
    // A 422 is small enough to keep; it is the key's recorded answer until the retention ends.
    const first = await postChat(gw, invalid, { 'idempotency-key': 'expiring-1' });
    expect(first.status).toBe(422);
    console.log(`kept 422: ${Buffer.byteLength(first.text)} bytes (bound 300)`);
    await eventually(async () => expect(readdirSync(bodiesDir())).toHaveLength(1));
    // Once forgotten, the same key with another body is a new request, not 422 reused.
    const again = await eventually(async () => {
      const answer = await postChat(gw, small, { 'idempotency-key': 'expiring-1' });
      expect(answer.body?.error?.code).not.toBe('idempotency_key_reused');
      return answer;
    }, 30_000);
    expect(again.headers.get('idempotent-replayed')).toBeNull();
    await eventually(async () => expect(existsSync(bodiesDir()) && readdirSync(bodiesDir()).every((name) => !name.endsWith(`${first.headers.get('x-request-id')}.json`))).toBe(true), 30_000);
  });
});
