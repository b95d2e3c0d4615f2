import { KafkaConfigError, readKafkaConfig } from './kafka.config';

describe('readKafkaConfig', () => {
  it('is null when KAFKA_BROKERS is unset or blank, so the gateway runs without Kafka', () => {
    expect(readKafkaConfig({})).toBeNull();
    expect(readKafkaConfig({ KAFKA_BROKERS: ' , ' })).toBeNull();
  });

  it('reads a broker list with defaults for the rest', () => {
    expect(readKafkaConfig({ KAFKA_BROKERS: 'a:9092, b:9093' })).toEqual({
      brokers: ['a:9092', 'b:9093'],
      clientId: 'inference-gateway',
      ssl: false,
      sasl: null,
      topicPrefix: '',
    });
  });

  it('reads client id, TLS, SASL credentials and a topic prefix', () => {
    const config = readKafkaConfig({
      KAFKA_BROKERS: 'k:9094',
      KAFKA_CLIENT_ID: 'gw-eu',
      KAFKA_SSL: 'true',
      KAFKA_SASL_MECHANISM: 'SCRAM-SHA-512',
      KAFKA_SASL_USERNAME: 'relay',
      KAFKA_SASL_PASSWORD: 's3cret',
      KAFKA_TOPIC_PREFIX: 'staging.',
    });
    expect(config).toEqual({
      brokers: ['k:9094'],
      clientId: 'gw-eu',
      ssl: true,
      sasl: { mechanism: 'scram-sha-512', username: 'relay', password: 's3cret' },
      topicPrefix: 'staging.',
    });
  });

  it('rejects an unknown SASL mechanism, missing credentials and a malformed KAFKA_SSL', () => {
    expect(() => readKafkaConfig({ KAFKA_BROKERS: 'k:1', KAFKA_SASL_MECHANISM: 'gssapi' })).toThrow(KafkaConfigError);
    expect(() => readKafkaConfig({ KAFKA_BROKERS: 'k:1', KAFKA_SASL_MECHANISM: 'plain', KAFKA_SASL_USERNAME: 'u' })).toThrow(
      /KAFKA_SASL_PASSWORD/,
    );
    expect(() => readKafkaConfig({ KAFKA_BROKERS: 'k:1', KAFKA_SSL: 'maybe' })).toThrow(/KAFKA_SSL/);
  });
});
