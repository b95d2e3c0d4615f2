// Idempotency keys on EventStoreDB/KurrentDB (docs/idempotency.md, "What is stored, and for how long"): a
// gateway whose store is the EventStoreDB adapter over a fake server with the server's append and
// `$maxAge` rules (test/support/fake-esdb-client.ts). Each new key life sets its stream's `$maxAge` to the
// retention plus the clock margin; once the server has expired the key's events, the key runs afresh
// (claimed at the stream's kept revision) and is charged again, once.
import { startTestGateway, TestGateway } from '../support/test-gateway';
import { FakeEsdbClient } from '../support/fake-esdb-client';
import { eventually, forwardedChatBodies, postChat } from '../chat/chat-test-helpers';
import { DEFAULT_ESDB_STORE_OPTIONS, EventStoreDbEventStore } from '../../src/event-store/eventstoredb/eventstoredb-event-store';
import { idempotencyStreamId } from '../../src/idempotency/idempotency-key';
import { STREAM_MAX_AGE_MARGIN_SECONDS } from '../../src/idempotency/idempotency-settings';

const RETENTION_SECONDS = 7200;
const CHAT = { model: 'aria', messages: [{ role: 'user', content: 'Say hello to the gateway.' }] };

describe('Idempotency-Key on EventStoreDB: $maxAge on the key streams', () => {
  jest.setTimeout(60_000);
  const server = new FakeEsdbClient();
  let gw: TestGateway;
  let saved: string | undefined;
  beforeAll(async () => {
    saved = process.env.GATEWAY_IDEMPOTENCY_RETENTION_SECONDS;
    process.env.GATEWAY_IDEMPOTENCY_RETENTION_SECONDS = String(RETENTION_SECONDS);
    gw = await startTestGateway({ overrides: () => ({ eventStore: new EventStoreDbEventStore(server, DEFAULT_ESDB_STORE_OPTIONS) }) });
  });
  afterAll(async () => {
    await gw?.close();
    if (saved === undefined) delete process.env.GATEWAY_IDEMPOTENCY_RETENTION_SECONDS;
    else process.env.GATEWAY_IDEMPOTENCY_RETENTION_SECONDS = saved;
  });

  const charges = async (requestId: string | null) => (await gw.events('CostPriced')).filter((event) => (event.data as any).requestId === requestId).length;

  it('sets $maxAge (retention + margin) when a key stream is created, and not again on a replay', async () => {
    const streamId = idempotencyStreamId(gw.orgId, 'esdb-1');
    const first = await postChat(gw, CHAT, { 'idempotency-key': 'esdb-1' });
    expect(first.status).toBe(200);
    const maxAge = RETENTION_SECONDS + STREAM_MAX_AGE_MARGIN_SECONDS;
    expect(server.metadataCalls.filter((call) => call.streamId === streamId).map((call) => call.metadata)).toEqual([{ maxAge }]);
    const replay = await eventually(async () => {
      const answer = await postChat(gw, CHAT, { 'idempotency-key': 'esdb-1' });
      expect(answer.headers.get('idempotent-replayed')).toBe('true');
      return answer;
    });
    expect(replay.text).toBe(first.text);
    expect(server.metadataCalls.filter((call) => call.streamId === streamId)).toHaveLength(1);
  });

  it('runs and charges a key afresh once the server expired its events; the stream keeps its revisions', async () => {
    const streamId = idempotencyStreamId(gw.orgId, 'esdb-2');
    const first = await postChat(gw, CHAT, { 'idempotency-key': 'esdb-2' });
    expect(first.status).toBe(200);
    await eventually(async () => expect(await charges(first.headers.get('x-request-id'))).toBe(1));
    await eventually(async () => expect(server.stream(streamId).map((record) => record.type)).toEqual(['IdempotencyKeyClaimed', 'IdempotentResponseRecorded']));
    const calls = forwardedChatBodies(gw).length;

    server.advance((RETENTION_SECONDS + STREAM_MAX_AGE_MARGIN_SECONDS) * 1000);
    const again = await postChat(gw, CHAT, { 'idempotency-key': 'esdb-2' });
    expect(again.status).toBe(200);
    expect(again.headers.get('idempotent-replayed')).toBeNull();
    expect(again.headers.get('x-request-id')).not.toBe(first.headers.get('x-request-id'));
    expect(forwardedChatBodies(gw)).toHaveLength(calls + 1);
    await eventually(async () => expect(await charges(again.headers.get('x-request-id'))).toBe(1));
    expect(await charges(first.headers.get('x-request-id'))).toBe(1);
    // The new life is claimed at revision 2, fresh, with no charge inherited; its $maxAge is set again.
    await eventually(async () => expect(server.stream(streamId)).toHaveLength(4));
    const newClaim = server.stream(streamId)[2];
    expect(newClaim).toMatchObject({ type: 'IdempotencyKeyClaimed', revision: 2 });
    expect(JSON.parse(JSON.stringify(newClaim.data))).toMatchObject({ requestId: again.headers.get('x-request-id'), fresh: true, chargedRequestId: null });
    expect(server.metadataCalls.filter((call) => call.streamId === streamId)).toHaveLength(2);
    const replay = await postChat(gw, CHAT, { 'idempotency-key': 'esdb-2' });
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.text).toBe(again.text);
  });
});
