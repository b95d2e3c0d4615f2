import { InMemoryEventStore } from '../../../test/kafka/support/in-memory-event-store';
import { KafkaRelay } from './kafka-relay';
import { KafkaConfigError } from '../kafka.config';
import { createKafkaRelay, relayCheckpointPath, relaySwitchedOn } from './kafka-relay.factory';

describe('createKafkaRelay', () => {
  it('builds no relay when KAFKA_BROKERS is unset', () => {
    expect(createKafkaRelay(new InMemoryEventStore(), {})).toBeNull();
  });

  it('builds a relay when brokers are configured, without connecting yet', () => {
    expect(createKafkaRelay(new InMemoryEventStore(), { KAFKA_BROKERS: '127.0.0.1:1' })).toBeInstanceOf(KafkaRelay);
  });

  it('builds no relay when GATEWAY_KAFKA_RELAY=off, even with brokers configured', () => {
    expect(createKafkaRelay(new InMemoryEventStore(), { KAFKA_BROKERS: '127.0.0.1:1', GATEWAY_KAFKA_RELAY: 'off' })).toBeNull();
    expect(createKafkaRelay(new InMemoryEventStore(), { KAFKA_BROKERS: '127.0.0.1:1', GATEWAY_KAFKA_RELAY: ' OFF ' })).toBeNull();
  });

  it('keeps the relay on when GATEWAY_KAFKA_RELAY is on, empty or unset', () => {
    for (const value of ['on', 'On', '', undefined]) {
      expect(createKafkaRelay(new InMemoryEventStore(), { KAFKA_BROKERS: '127.0.0.1:1', GATEWAY_KAFKA_RELAY: value })).toBeInstanceOf(KafkaRelay);
    }
    expect(relaySwitchedOn({})).toBe(true);
  });

  it('refuses any other GATEWAY_KAFKA_RELAY value, naming it', () => {
    for (const value of ['false', '0', 'of']) {
      expect(() => createKafkaRelay(new InMemoryEventStore(), { KAFKA_BROKERS: '127.0.0.1:1', GATEWAY_KAFKA_RELAY: value })).toThrow(
        new KafkaConfigError(`GATEWAY_KAFKA_RELAY must be on or off, got "${value}"`),
      );
    }
  });

  it('keeps the checkpoint in the data dir unless told otherwise', () => {
    expect(relayCheckpointPath({})).toBe('data/kafka-relay-checkpoint.json');
    expect(relayCheckpointPath({ GATEWAY_DATA_DIR: '/var/lib/gateway' })).toBe('/var/lib/gateway/kafka-relay-checkpoint.json');
    expect(relayCheckpointPath({ GATEWAY_DATA_DIR: '/var/lib/gateway', KAFKA_RELAY_CHECKPOINT_FILE: '/ckpt/relay.json' })).toBe('/ckpt/relay.json');
  });
});
