// Builds the relay from the environment for the gateway; null when KAFKA_BROKERS is unset.
import type { EventStore } from '../../event-store/event-store.port';
import { createKafka, readKafkaConfig } from '../kafka.config';
import { KafkaBatchPublisher, RELAY_CLIENT_RETRY } from './kafka-publisher';
import { KafkaRelay, type RelayLogger } from './kafka-relay';
import { FileRelayCheckpointStore, relayCheckpointPath } from './relay-checkpoint';

export { CHECKPOINT_FILE_NAME, relayCheckpointPath } from './relay-checkpoint';

export function createKafkaRelay(store: EventStore, env: NodeJS.ProcessEnv = process.env, logger?: RelayLogger): KafkaRelay | null {
  const config = readKafkaConfig(env);
  if (!config) return null;
  return new KafkaRelay({
    store,
    publisher: new KafkaBatchPublisher(createKafka(config, { retry: RELAY_CLIENT_RETRY })),
    checkpoints: new FileRelayCheckpointStore(relayCheckpointPath(env)),
    topicPrefix: config.topicPrefix,
    logger,
  });
}
