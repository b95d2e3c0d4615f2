// Integration tests run against the broker in KAFKA_BROKERS (test/kafka/with-broker.sh starts one).
// Without it they are reported as skipped, with the reason printed, never as passed.
import { randomUUID } from 'node:crypto';
import type { Kafka, KafkaConfig } from 'kafkajs';
import { createKafka, readKafkaConfig } from '../../../src/kafka/kafka.config';

export const brokers = process.env.KAFKA_BROKERS ?? '';

export function describeWithBroker(name: string, body: () => void): void {
  if (brokers) {
    describe(name, body);
    return;
  }
  console.warn(`SKIPPED "${name}": KAFKA_BROKERS is unset; run it with test/kafka/with-broker.sh npx jest ${expect.getState().testPath ?? ''}`);
  describe.skip(name, body);
}

export function testKafka(brokerList: string = brokers, overrides: Partial<KafkaConfig> = {}): Kafka {
  const config = readKafkaConfig({ ...process.env, KAFKA_BROKERS: brokerList, KAFKA_CLIENT_ID: 'kafka-int-test' });
  if (!config) throw new Error('no brokers');
  return createKafka(config, overrides);
}

/** Each test gets its own topics on the shared broker, so parallel test files never see each other's messages. */
export function uniqueTopicPrefix(): string {
  return `test-${randomUUID().slice(0, 8)}.`;
}
