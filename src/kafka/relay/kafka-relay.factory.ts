// Builds the relay from the environment for the gateway; null when KAFKA_BROKERS is unset or
// GATEWAY_KAFKA_RELAY=off. One relay per event store is enough (docs/kafka.md): replicas sharing a store
// turn it off and one single-replica deployment keeps it on (deploy/README.md, "Kafka relay").
import type { EventStore } from '../../event-store/event-store.port';
import { createKafka, KafkaConfigError, readKafkaConfig } from '../kafka.config';
import { KafkaBatchPublisher, RELAY_CLIENT_RETRY } from './kafka-publisher';
import { KafkaRelay, type RelayLogger } from './kafka-relay';
import { FileRelayCheckpointStore, relayCheckpointPath } from './relay-checkpoint';
import type { RelayLease } from './relay-lease';

export { CHECKPOINT_FILE_NAME, relayCheckpointPath } from './relay-checkpoint';

/** GATEWAY_KAFKA_RELAY: `on` (the default, also when unset or empty) or `off`. */
export function relaySwitchedOn(env: NodeJS.ProcessEnv): boolean {
  const value = (env.GATEWAY_KAFKA_RELAY ?? '').trim().toLowerCase();
  if (value === '' || value === 'on') return true;
  if (value === 'off') return false;
  throw new KafkaConfigError(`GATEWAY_KAFKA_RELAY must be on or off, got "${env.GATEWAY_KAFKA_RELAY}"`);
}

/** `lease`: the shared store's relay lease (PostgreSQL): every replica may keep its relay on, one relays. */
export function createKafkaRelay(store: EventStore, env: NodeJS.ProcessEnv = process.env, logger?: RelayLogger, lease?: RelayLease): KafkaRelay | null {
  if (!relaySwitchedOn(env)) return null;
  const config = readKafkaConfig(env);
  if (!config) return null;
  return new KafkaRelay({
    store,
    publisher: new KafkaBatchPublisher(createKafka(config, { retry: RELAY_CLIENT_RETRY })),
    checkpoints: lease ?? new FileRelayCheckpointStore(relayCheckpointPath(env)),
    lease,
    topicPrefix: config.topicPrefix,
    logger,
  });
}
