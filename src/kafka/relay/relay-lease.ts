// Exactly one Kafka relay across replicas that share an event store: a relay given a lease relays only
// while it holds it, and keeps its checkpoint where the next holder finds it (the lease saves it, and
// refuses to once lost, so a former holder can never move the shared checkpoint back).
// The PostgreSQL store provides one (postgres-relay-lease.ts); stores without one keep a relay per
// process and GATEWAY_KAFKA_RELAY to turn the others off (docs/kafka.md).
import type { RelayCheckpointStore } from './relay-checkpoint';

export interface RelayLease extends RelayCheckpointStore {
  /** Takes the lease if nobody holds it; true when this process holds it (also when it already did). */
  tryAcquire(): Promise<boolean>;
  /** False from the moment the lease's connection is known to be lost. */
  held(): boolean;
  release(): Promise<void>;
}

/** A store that can hand out a relay lease (duck-typed: the store behind the runtime's wrappers). */
export interface RelayLeaseSource {
  createRelayLease(): RelayLease;
}

export function isRelayLeaseSource(store: unknown): store is RelayLeaseSource {
  return typeof (store as Partial<RelayLeaseSource> | null)?.createRelayLease === 'function';
}
