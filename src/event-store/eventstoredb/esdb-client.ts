// The part of @eventstore/db-client 6.2.1 the adapter uses, behind a narrow interface (EsdbClient) that
// the unit tests fake. Two things the installed client does not offer are added here, built the way
// its own readAll builds a request (dist/streams/readAll.js):
// - a server-side filter on $all reads (the client sets `no_filter` on every read; the server has
//   filtered reads, KurrentDB src/KurrentDB.Core/Services/Transport/Grpc/Streams.Read.cs, lines 165-166);
// - appends that never take the client's batch-append path (item 9, docs/operations.md "EventStoreDB"):
//   appendToStream uses batchAppend unless the call carries credentials
//   (dist/streams/appendToStream/index.js, line 10), so every append passes them.
import type { Readable } from 'node:stream';
import type { CallOptions, Metadata } from '@grpc/grpc-js';
import {
  EventStoreDBClient,
  type AllStreamResolvedEvent,
  type AppendExpectedRevision,
  type AppendResult,
  type BaseOptions,
  type Credentials,
  type Direction,
  type EventData,
  type ReadPosition,
  type ResolvedEvent,
} from '@eventstore/db-client';
import { parseConnectionString } from '@eventstore/db-client/dist/Client/parseConnectionString';
import { ReadStream } from '@eventstore/db-client/dist/streams/utils/ReadStream';
import { convertGrpcEvent } from '@eventstore/db-client/dist/utils';
import { StreamsClient } from '@eventstore/db-client/generated/streams_grpc_pb';
import { ReadReq } from '@eventstore/db-client/generated/streams_pb';
import { Empty } from '@eventstore/db-client/generated/shared_pb';

/** A read the adapter can abandon at its deadline. */
export type CancellableRead<E> = AsyncIterable<E> & { cancel(): Promise<void> };

export interface EsdbClient {
  appendToStream(streamId: string, events: EventData[], options: { expectedRevision: AppendExpectedRevision; deadline: number }): Promise<AppendResult>;
  readStream(streamId: string, options: { fromRevision: bigint | 'start' | 'end'; maxCount: number; direction: Direction }): CancellableRead<ResolvedEvent>;
  /** $all, only events of streams whose name starts with one of `streamPrefixes` (filtered by the server); null: every event. */
  readAll(options: { fromPosition: ReadPosition; maxCount: number; direction: Direction; streamPrefixes: readonly string[] | null }): CancellableRead<AllStreamResolvedEvent>;
  /** Writes the stream's metadata (an append of `$metadata` to its metastream `$$<stream>`). */
  setStreamMetadata(streamId: string, metadata: { maxAge: number }, options: { deadline: number }): Promise<void>;
  dispose(): Promise<void>;
}

/** The protected members of the client that its own reads are built with (dist/Client/index.d.ts, lines 110 and 121). */
interface ClientInternals {
  GRPCStreamCreator(client: typeof StreamsClient, debugName: string, creator: (client: StreamsClient) => Readable): () => Promise<Readable>;
  callArguments(options: BaseOptions, callOptions?: CallOptions): [Metadata, CallOptions];
}

/** Credentials on an insecure connection are ignored by the client (dist/Client/index.js, createCredentialsMetadataGenerator). */
const INSECURE_PLACEHOLDER: Credentials = { username: 'insecure', password: 'ignored' };

export function connectEsdbClient(connectionString: string): EsdbClient {
  const settings = parseConnectionString(connectionString);
  const credentials = settings.defaultCredentials ?? (settings.tls === false ? INSECURE_PLACEHOLDER : null);
  if (credentials === null) {
    throw new Error(
      'EVENTSTORE_CONNECTION_STRING needs credentials (esdb://user:password@host) when TLS is on: every append passes them so the client never takes its batch-append path (docs/operations.md, "EventStoreDB")',
    );
  }
  return wrapClient(EventStoreDBClient.connectionString(connectionString), credentials);
}

export function wrapClient(client: EventStoreDBClient, credentials: Credentials): EsdbClient {
  return {
    appendToStream: (streamId, events, { expectedRevision, deadline }) => client.appendToStream(streamId, events, { expectedRevision, deadline, credentials }),
    readStream: (streamId, options) => client.readStream(streamId, options),
    readAll: ({ streamPrefixes, ...options }) => (streamPrefixes === null ? client.readAll(options) : readAllFiltered(client, { ...options, streamPrefixes })),
    // An append to the metastream: credentials keep it off the batch-append path too.
    setStreamMetadata: async (streamId, metadata, { deadline }) => void (await client.setStreamMetadata(streamId, metadata, { deadline, credentials })),
    dispose: () => client.dispose(),
  };
}

function readAllFiltered(
  client: EventStoreDBClient,
  { fromPosition, maxCount, direction, streamPrefixes }: Parameters<EsdbClient['readAll']>[0] & { streamPrefixes: readonly string[] },
): CancellableRead<AllStreamResolvedEvent> {
  const options = new ReadReq.Options();
  const all = new ReadReq.Options.AllOptions();
  if (fromPosition === 'start') all.setStart(new Empty());
  else if (fromPosition === 'end') all.setEnd(new Empty());
  else {
    const position = new ReadReq.Options.Position();
    position.setCommitPosition(fromPosition.commit.toString(10));
    position.setPreparePosition(fromPosition.prepare.toString(10));
    all.setPosition(position);
  }
  options.setAll(all);
  options.setResolveLinks(false);
  options.setCount(String(maxCount));
  const uuids = new ReadReq.Options.UUIDOption();
  uuids.setString(new Empty());
  options.setUuidOption(uuids);
  const expression = new ReadReq.Options.FilterOptions.Expression();
  expression.setPrefixList([...streamPrefixes]);
  const filter = new ReadReq.Options.FilterOptions();
  filter.setStreamIdentifier(expression);
  filter.setCount(new Empty());
  filter.setCheckpointintervalmultiplier(1);
  options.setFilter(filter);
  options.setReadDirection(direction === 'backwards' ? ReadReq.Options.ReadDirection.BACKWARDS : ReadReq.Options.ReadDirection.FORWARDS);
  const request = new ReadReq();
  request.setOptions(options);
  const internals = client as unknown as ClientInternals;
  // The adapter enforces its own read deadline (esdb-reads.ts), as the client's readAll leaves gRPC's at Infinity.
  const createStream = internals.GRPCStreamCreator(StreamsClient, 'readAll', (grpc) => grpc.read(request, ...internals.callArguments({}, { deadline: Infinity })));
  return new ReadStream<AllStreamResolvedEvent>(createStream as never, convertGrpcEvent, {}) as unknown as CancellableRead<AllStreamResolvedEvent>;
}
