// Idempotency-Key end to end on one gateway (docs/idempotency.md): one run per key whatever the number
// of concurrent duplicates, replays byte for byte (plain and streamed), 422 for a reused key, 400 for a
// malformed one, released keys after an answer that charged nothing, and the official Node SDK.
import { startTestGateway, TestGateway } from '../support/test-gateway';
import { eventually, forwardedChatBodies, postChat } from '../chat/chat-test-helpers';
import { toFile } from 'openai';
import { eventIdFor, newRequestId, requestStreamId } from '../../src/event-store/event-ids';
import { CONVERSATION, spokenWav } from '../transcription/support/spoken-audio';
import { jsonFingerprint } from '../../src/idempotency/fingerprint';
import { idempotencyStreamId } from '../../src/idempotency/idempotency-key';

const CHAT = { model: 'aria', messages: [{ role: 'user', content: 'Say hello to the gateway.' }] };

describe('Idempotency-Key', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway();
  });
  afterAll(() => gw?.close());
  beforeEach(() => gw.simulator.control.reset());

  const charges = async (requestIds?: string[]) =>
    (await gw.events('CostPriced')).filter((event) => requestIds === undefined || requestIds.includes((event.data as any).requestId)).length;
  const keyEvents = async (type: string) => (await gw.events(type)).filter((event) => event.streamId.startsWith('idempotency-'));

  it('runs 10 concurrent duplicates once: one upstream call, one charge, the rest 409 in use or the replay', async () => {
    const chargesBefore = await charges();
    const answers = await Promise.all(Array.from({ length: 10 }, () => postChat(gw, CHAT, { 'idempotency-key': 'concurrent-1' })));
    const ran = answers.filter((answer) => answer.status === 200 && answer.headers.get('idempotent-replayed') === null);
    const replayed = answers.filter((answer) => answer.headers.get('idempotent-replayed') === 'true');
    const inUse = answers.filter((answer) => answer.status === 409);
    console.log(`10 duplicates: ${ran.length} ran, ${replayed.length} replayed, ${inUse.length} answered 409`);
    expect(ran).toHaveLength(1);
    expect(replayed.length + inUse.length).toBe(9);
    for (const answer of inUse) {
      expect(answer.body.error.code).toBe('idempotency_key_in_use');
      expect(Number(answer.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    }
    for (const answer of replayed) expect(answer.text).toBe(ran[0].text);
    expect(forwardedChatBodies(gw)).toHaveLength(1);
    await eventually(async () => expect(await charges()).toBe(chargesBefore + 1));
    // After it completed, the same key answers the recorded answer byte for byte, uncharged.
    const again = await eventually(async () => {
      const answer = await postChat(gw, CHAT, { 'idempotency-key': 'concurrent-1' });
      expect(answer.status).toBe(200);
      return answer;
    });
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.headers.get('x-request-id')).toBe(ran[0].headers.get('x-request-id'));
    expect(again.headers.get('content-type')).toBe(ran[0].headers.get('content-type'));
    expect(again.text).toBe(ran[0].text);
    expect(forwardedChatBodies(gw)).toHaveLength(1);
    expect(await charges()).toBe(chargesBefore + 1);
  });

  it('treats the same JSON in another key order and spacing as the same request', async () => {
    const first = await postChat(gw, { model: 'aria', messages: [{ role: 'user', content: 'Key order.' }] }, { 'idempotency-key': 'order-1' });
    const reordered = await fetch(`${gw.baseUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${gw.apiKey}`, 'content-type': 'application/json', 'idempotency-key': 'order-1' },
      body: '{ "messages": [ { "content": "Key order.", "role": "user" } ], "model": "aria" }',
    });
    expect(reordered.status).toBe(200);
    expect(reordered.headers.get('idempotent-replayed')).toBe('true');
    expect(await reordered.text()).toBe(first.text);
  });

  it('answers 422 idempotency_key_reused for the key with another body, and runs nothing', async () => {
    await postChat(gw, CHAT, { 'idempotency-key': 'reused-1' });
    const callsBefore = forwardedChatBodies(gw).length;
    const other = await postChat(gw, { ...CHAT, messages: [{ role: 'user', content: 'Something else.' }] }, { 'idempotency-key': 'reused-1' });
    expect(other.status).toBe(422);
    expect(other.body).toEqual({ error: { message: expect.stringContaining('another request'), type: 'invalid_request_error', param: 'Idempotency-Key', code: 'idempotency_key_reused' } });
    expect(forwardedChatBodies(gw)).toHaveLength(callsBefore);
  });

  it('scopes a key to its path: the same key on another endpoint is another request (422)', async () => {
    await postChat(gw, CHAT, { 'idempotency-key': 'path-1' });
    const speech = await gw.postJson('/v1/audio/speech', { model: 'voice-1', input: 'hello', voice: 'alloy' }, { headers: { 'idempotency-key': 'path-1' } });
    expect(speech.status).toBe(422);
    expect(((await speech.json()) as any).error.code).toBe('idempotency_key_reused');
  });

  it.each([
    ['256 characters', 'k'.repeat(256)],
    ['a control character', 'tab\there'],
  ])('refuses a key of %s with 400 invalid_idempotency_key before running anything', async (_label, key) => {
    const callsBefore = forwardedChatBodies(gw).length;
    const answer = await postChat(gw, CHAT, { 'idempotency-key': key });
    expect(answer.status).toBe(400);
    expect(answer.body.error).toMatchObject({ code: 'invalid_idempotency_key', type: 'invalid_request_error', param: 'Idempotency-Key' });
    expect(forwardedChatBodies(gw)).toHaveLength(callsBefore);
  });

  it('accepts a key of exactly 255 printable characters (space and tilde included)', async () => {
    // Inner spaces only: HTTP trims a header value's leading and trailing whitespace.
    const key = `a ~${'k'.repeat(252)}`;
    expect(key).toHaveLength(255);
    const answer = await postChat(gw, CHAT, { 'idempotency-key': key });
    expect(answer.status).toBe(200);
  });

  it('replays a streamed answer as the same sequence of SSE frames, uncharged', async () => {
    const body = { ...CHAT, stream: true, stream_options: { include_usage: true } };
    const first = await postChat(gw, body, { 'idempotency-key': 'stream-1' });
    expect(first.status).toBe(200);
    const chargesAfterFirst = await eventually(async () => {
      const count = await charges([first.headers.get('x-request-id')!]);
      expect(count).toBe(1);
      return charges();
    });
    const replay = await eventually(async () => {
      const answer = await postChat(gw, body, { 'idempotency-key': 'stream-1' });
      expect(answer.headers.get('idempotent-replayed')).toBe('true');
      return answer;
    });
    expect(replay.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(replay.text).toBe(first.text);
    expect(replay.text.endsWith('data: [DONE]\n\n')).toBe(true);
    expect(await charges()).toBe(chargesAfterFirst);
    expect(forwardedChatBodies(gw)).toHaveLength(1);
  });

  it('keeps and replays a 4xx that reached validation', async () => {
    const invalid = { model: 'aria', messages: [] };
    const first = await postChat(gw, invalid, { 'idempotency-key': 'invalid-1' });
    expect(first.status).toBe(422);
    const replay = await eventually(async () => {
      const answer = await postChat(gw, invalid, { 'idempotency-key': 'invalid-1' });
      expect(answer.headers.get('idempotent-replayed')).toBe('true');
      return answer;
    });
    expect(replay.status).toBe(422);
    expect(replay.text).toBe(first.text);
  });

  it('releases the key after an upstream failure that charged nothing: the retry runs afresh and is charged once', async () => {
    gw.simulator.control.set('aria', { kind: 'fail', status: 500 });
    const failed = await postChat(gw, CHAT, { 'idempotency-key': 'released-1' });
    expect(failed.status).toBeGreaterThanOrEqual(500);
    await eventually(async () => expect((await keyEvents('IdempotencyKeyReleased')).some((event) => (event.data as any).requestId === failed.headers.get('x-request-id'))).toBe(true));
    gw.simulator.control.set('aria', { kind: 'ok' });
    const retried = await postChat(gw, CHAT, { 'idempotency-key': 'released-1' });
    expect(retried.status).toBe(200);
    expect(retried.headers.get('idempotent-replayed')).toBeNull();
    expect(await charges([failed.headers.get('x-request-id')!, retried.headers.get('x-request-id')!])).toBe(1);
  });

  it('is sent by the official Node SDK through the `headers` request option', async () => {
    const openai = gw.openai();
    const first = await openai.chat.completions.create(CHAT as any, { headers: { 'Idempotency-Key': 'sdk-node-1' } }).withResponse();
    const second = await eventually(async () => {
      const answer = await openai.chat.completions.create(CHAT as any, { headers: { 'Idempotency-Key': 'sdk-node-1' } }).withResponse();
      expect(answer.response.headers.get('idempotent-replayed')).toBe('true');
      return answer;
    });
    expect(second.data).toEqual(first.data);
    expect(await charges([first.response.headers.get('x-request-id')!])).toBe(1);
  });

  it('stores only the hash of the key, in a stream scoped to the organization', async () => {
    await postChat(gw, CHAT, { 'idempotency-key': 'secret-looking-key' });
    const claims = await keyEvents('IdempotencyKeyClaimed');
    expect(claims.length).toBeGreaterThan(0);
    for (const claim of claims) expect(claim.streamId).toMatch(new RegExp(`^idempotency-${gw.orgId}-[0-9a-f]{64}$`));
    expect(JSON.stringify(await gw.events())).not.toContain('secret-looking-key');
  });

  it('does not charge again after a claimant that was charged died: the retry is answered, its outcome names the earlier charge', async () => {
    // What a replica killed between its charge and its answer leaves: a claim whose lease expired, and a CostPriced.
    const dead = newRequestId();
    const store = gw.gateway.runtime.eventStore;
    const past = new Date(Date.now() - 120_000);
    await store.append(requestStreamId(dead), [{ id: eventIdFor(dead, 'CostPriced'), type: 'CostPriced', data: { requestId: dead, organizationId: gw.orgId, model: 'aria', endpoint: '/v1/chat/completions', costUsdMicros: 21, lineItems: [], priceBookVersion: 'test', occurredAt: past.toISOString() } }]);
    const claim = { requestId: dead, organizationId: gw.orgId, fingerprint: jsonFingerprint('POST', '/v1/chat/completions', CHAT), claimedAt: past.toISOString(), leaseExpiresAt: new Date(past.getTime() + 60_000).toISOString(), fresh: true, chargedRequestId: null, costUsdMicros: null };
    await store.append(idempotencyStreamId(gw.orgId, 'dead-claimant-1'), [{ id: eventIdFor(dead, 'IdempotencyKeyClaimed'), type: 'IdempotencyKeyClaimed', data: claim }], { expectedRevision: 'no_stream' });

    const retry = await postChat(gw, CHAT, { 'idempotency-key': 'dead-claimant-1' });
    expect(retry.status).toBe(200);
    expect(retry.headers.get('idempotent-replayed')).toBeNull();
    expect(forwardedChatBodies(gw)).toHaveLength(1);
    expect(await charges([retry.headers.get('x-request-id')!])).toBe(0);
    const recorded = await eventually(async () => {
      const outcome = (await keyEvents('IdempotentResponseRecorded')).find((event) => (event.data as any).requestId === retry.headers.get('x-request-id'));
      expect(outcome).toBeDefined();
      return outcome!.data as any;
    });
    expect(recorded).toMatchObject({ status: 200, kept: true, chargedRequestId: dead, costUsdMicros: 21 });
    // And the key's replay is this answer, still with the one charge.
    const replay = await postChat(gw, CHAT, { 'idempotency-key': 'dead-claimant-1' });
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.text).toBe(retry.text);
  });

  it('fingerprints a multipart upload by its parts: the SDK retry (another boundary) replays, another file is 422', async () => {
    const openai = gw.openai();
    const wav = spokenWav(CONVERSATION);
    const transcribe = async (bytes: Buffer) => openai.audio.transcriptions.create({ file: await toFile(bytes, 'a.wav'), model: 'symphony' }, { headers: { 'Idempotency-Key': 'upload-1' } }).withResponse();
    const first = await transcribe(wav);
    const callsAfterFirst = gw.simulator.control.received((call) => call.path.includes('transcriptions')).length;
    const again = await eventually(async () => {
      const answer = await transcribe(wav);
      expect(answer.response.headers.get('idempotent-replayed')).toBe('true');
      return answer;
    });
    expect(again.data).toEqual(first.data);
    expect(gw.simulator.control.received((call) => call.path.includes('transcriptions'))).toHaveLength(callsAfterFirst);
    const other = Buffer.from(wav);
    other[other.length - 1] ^= 1;
    await expect(transcribe(other)).rejects.toMatchObject({ status: 422, error: { code: 'idempotency_key_reused' } });
    expect(await charges([first.response.headers.get('x-request-id')!])).toBe(1);
  });
});
