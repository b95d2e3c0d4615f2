import { InMemoryEventStore } from '../../../test/kafka/support/in-memory-event-store';
import { KafkaRelay } from './kafka-relay';
import { createKafkaRelay, relayCheckpointPath } from './kafka-relay.factory';

describe('createKafkaRelay', () => {
  it('builds no relay when KAFKA_BROKERS is unset', () => {
    expect(createKafkaRelay(new InMemoryEventStore(), {})).toBeNull();
  });

  it('builds a relay when brokers are configured, without connecting yet', () => {
    expect(createKafkaRelay(new InMemoryEventStore(), { KAFKA_BROKERS: '127.0.0.1:1' })).toBeInstanceOf(KafkaRelay);
  });

  it('keeps the checkpoint in the data dir unless told otherwise', () => {
    expect(relayCheckpointPath({})).toBe('data/kafka-relay-checkpoint.json');
    expect(relayCheckpointPath({ GATEWAY_DATA_DIR: '/var/lib/gateway' })).toBe('/var/lib/gateway/kafka-relay-checkpoint.json');
    expect(relayCheckpointPath({ GATEWAY_DATA_DIR: '/var/lib/gateway', KAFKA_RELAY_CHECKPOINT_FILE: '/ckpt/relay.json' })).toBe('/ckpt/relay.json');
  });
});
