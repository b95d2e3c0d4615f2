// The real @eventstore/db-client against an in-process gRPC server speaking EventStoreDB's Streams
// protocol (the client's own generated definitions): checks on the wire what no fake client can — that
// appends take the unary Append call, never BatchAppend (item 9), that $all reads carry the stream-prefix
// filter and the page size asked for (items 7, 8), and that a read the server never finishes is cancelled
// at the adapter's deadline (item 8).
import { randomUUID } from 'node:crypto';
import { Server, ServerCredentials, type ServerReadableStream, type ServerWritableStream, type sendUnaryData } from '@grpc/grpc-js';
import { EventStoreDBClient } from '@eventstore/db-client';
import { StreamsService } from '@eventstore/db-client/generated/streams_grpc_pb';
import { AppendReq, AppendResp, ReadReq, ReadResp } from '@eventstore/db-client/generated/streams_pb';
import { StreamIdentifier, UUID } from '@eventstore/db-client/generated/shared_pb';
import { ServerFeaturesService } from '@eventstore/db-client/generated/serverfeatures_grpc_pb';
import { SupportedMethod, SupportedMethods } from '@eventstore/db-client/generated/serverfeatures_pb';
import { wrapClient } from './esdb-client';
import { DEFAULT_ESDB_STORE_OPTIONS, EventStoreDbEventStore } from './eventstoredb-event-store';
import { GATEWAY_STREAM_PREFIXES } from './gateway-streams';
import { ReadDeadlineExceededError } from './esdb-reads';

interface ServerLog {
  appends: { stream: string; noStream: boolean; ids: string[]; types: string[]; data: string[] }[];
  batchAppends: number;
  reads: ReadReq.Options.AsObject[];
  cancelledReads: number;
}

const STORED_ID = randomUUID();

function recordedEvent(): ReadResp {
  const record = new ReadResp.ReadEvent.RecordedEvent();
  const id = new UUID();
  id.setString(STORED_ID);
  record.setId(id);
  const stream = new StreamIdentifier();
  stream.setStreamName(Buffer.from('request-1'));
  record.setStreamIdentifier(stream);
  record.setStreamRevision('0');
  record.setCommitPosition('700');
  record.setPreparePosition('700');
  record.getMetadataMap().set('type', 'RequestAdmitted').set('content-type', 'application/json').set('created', '0');
  record.setData(Buffer.from(JSON.stringify({ requestId: '1' })));
  const event = new ReadResp.ReadEvent();
  event.setEvent(record);
  event.setCommitPosition('700');
  const response = new ReadResp();
  response.setEvent(event);
  return response;
}

function startServer(log: ServerLog, stallReads: () => boolean): Promise<{ server: Server; port: number }> {
  const server = new Server();
  // Advertises BatchAppend as a real server does: the client then takes it for any append without credentials.
  server.addService(ServerFeaturesService, {
    getSupportedMethods: (_call: unknown, callback: sendUnaryData<SupportedMethods>) => {
      const methods = new SupportedMethods();
      methods.setEventStoreServerVersion('24.10.0');
      for (const name of ['read', 'append', 'batchappend']) {
        const method = new SupportedMethod();
        method.setServiceName('event_store.client.streams.streams');
        method.setMethodName(name);
        methods.addMethods(method);
      }
      callback(null, methods);
    },
  });
  server.addService(StreamsService, {
    read: (call: ServerWritableStream<ReadReq, ReadResp>) => {
      log.reads.push(call.request.getOptions()!.toObject());
      call.on('cancelled', () => (log.cancelledReads += 1));
      if (stallReads()) return;
      call.write(recordedEvent());
      call.end();
    },
    append: (call: ServerReadableStream<AppendReq, AppendResp>, callback: sendUnaryData<AppendResp>) => {
      const entry = { stream: '', noStream: false, ids: [] as string[], types: [] as string[], data: [] as string[] };
      call.on('data', (request: AppendReq) => {
        if (request.hasOptions()) {
          entry.stream = Buffer.from(request.getOptions()!.getStreamIdentifier()!.getStreamName()).toString('utf8');
          entry.noStream = request.getOptions()!.hasNoStream();
        } else {
          const message = request.getProposedMessage()!;
          entry.ids.push(message.getId()!.getString());
          entry.types.push(message.getMetadataMap().get('type') ?? '');
          entry.data.push(Buffer.from(message.getData()).toString('utf8'));
        }
      });
      call.on('end', () => {
        log.appends.push(entry);
        const position = new AppendResp.Position();
        position.setCommitPosition('900');
        position.setPreparePosition('900');
        const success = new AppendResp.Success();
        success.setCurrentRevision(String(entry.ids.length - 1));
        success.setPosition(position);
        const response = new AppendResp();
        response.setSuccess(success);
        callback(null, response);
      });
    },
    batchAppend: (call: { end(): void }) => {
      log.batchAppends += 1;
      call.end();
    },
  });
  return new Promise((resolve, reject) =>
    server.bindAsync('127.0.0.1:0', ServerCredentials.createInsecure(), (error, port) => (error ? reject(error) : resolve({ server, port }))),
  );
}

describe('the adapter on the wire, against a gRPC server speaking the Streams protocol', () => {
  let log: ServerLog;
  let server: Server;
  let store: EventStoreDbEventStore;
  let stall = false;
  let port: number;

  beforeEach(async () => {
    log = { appends: [], batchAppends: 0, reads: [], cancelledReads: 0 };
    stall = false;
    const started = await startServer(log, () => stall);
    server = started.server;
    port = started.port;
    const client = EventStoreDBClient.connectionString(`esdb://admin:changeit@127.0.0.1:${port}?tls=false`);
    store = new EventStoreDbEventStore(wrapClient(client, { username: 'admin', password: 'changeit' }), { ...DEFAULT_ESDB_STORE_OPTIONS, readDeadlineMs: 300 });
  });

  afterEach(async () => {
    await store.close();
    server.forceShutdown();
  });

  it('appends with the unary Append call at an exact revision, never BatchAppend', async () => {
    const ids = [randomUUID(), randomUUID()];
    const result = await store.append('request-1', ids.map((id) => ({ id, type: 'UsageMeasured', data: {} })));
    expect(result).toEqual({ nextExpectedRevision: 1, position: '900/900' });
    expect(log.appends).toEqual([{ stream: 'request-1', noStream: true, ids, types: ['UsageMeasured', 'UsageMeasured'], data: ['{}', '{}'] }]);
    expect(log.batchAppends).toBe(0);
  });

  it("sets $maxAge as a $metadata event appended to the stream's metastream, with the unary Append call", async () => {
    await store.setStreamMaxAge('idempotency-org-abc', 86_700);
    expect(log.appends).toEqual([{ stream: '$$idempotency-org-abc', noStream: false, ids: [expect.any(String)], types: ['$metadata'], data: ['{"$maxAge":86700}'] }]);
    expect(log.batchAppends).toBe(0);
  });

  it('(control) the client alone would take BatchAppend on this server: the guard is what keeps it off', async () => {
    const bare = EventStoreDBClient.connectionString(`esdb://admin:changeit@127.0.0.1:${port}?tls=false`);
    // Not awaited: the batch stream has no deadline, and this server ends it without an answer.
    const append = bare.appendToStream('request-2', [{ id: randomUUID(), type: 'A', data: {}, metadata: undefined, contentType: 'application/json' }]).catch(() => undefined);
    for (let i = 0; i < 200 && log.batchAppends === 0; i++) await new Promise((resolve) => setTimeout(resolve, 10));
    const settled = (promise: Promise<unknown>): Promise<unknown> => Promise.race([promise, new Promise((resolve) => setTimeout(resolve, 500))]);
    await settled(bare.dispose());
    await settled(append);
    expect(log.batchAppends).toBe(1);
    expect(log.appends).toEqual([]);
  });

  it("reads $all with the server-side filter on the gateway's stream prefixes and the page size asked for", async () => {
    const events = await store.readAll({ after: '100/100', maxCount: 20 });
    expect(events.map((e) => [e.id, e.type, e.streamId, e.position])).toEqual([[STORED_ID, 'RequestAdmitted', 'request-1', '700/700']]);
    expect(events[0].data).toEqual({ requestId: '1' });
    const [read] = log.reads;
    expect(read.filter?.streamIdentifier?.prefixList).toEqual(GATEWAY_STREAM_PREFIXES);
    expect(read.count).toBe('21');
    expect(read.readDirection).toBe(ReadReq.Options.ReadDirection.FORWARDS);
    expect(read.all?.position).toEqual({ commitPosition: '100', preparePosition: '100' });
    expect(read.noFilter).toBeUndefined();
  });

  it('finds the head with a filtered backwards read of one event from the end', async () => {
    expect(await store.headPosition()).toBe('700/700');
    expect(log.reads[0]).toMatchObject({ count: '1', readDirection: ReadReq.Options.ReadDirection.BACKWARDS, all: { end: {} } });
  });

  it('cancels a read the server never finishes at the deadline and fails it', async () => {
    stall = true;
    await expect(store.readAll({ after: null, maxCount: 10 })).rejects.toBeInstanceOf(ReadDeadlineExceededError);
    for (let i = 0; i < 100 && log.cancelledReads === 0; i++) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(log.cancelledReads).toBe(1);
  });
});
