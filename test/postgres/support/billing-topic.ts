// Reads a billing topic from its beginning up to its end as it is now (each partition's high watermark when
// called), for the multi-host test's check of what the Kafka relay published (relayed-once.ts).
import { randomUUID } from 'node:crypto';
import { HEADER_EVENT_ID } from '../../../src/kafka/billing-topics';
import { testKafka } from '../../kafka/support/broker-env';
import { waitFor } from './wait-for';
import type { TopicMessage } from './relayed-once';

export async function readWholeTopic(brokers: string, topic: string, timeoutMs = 60_000): Promise<TopicMessage[]> {
  const kafka = testKafka(brokers);
  const admin = kafka.admin();
  await admin.connect();
  const ends = await admin.fetchTopicOffsets(topic).finally(() => admin.disconnect());
  const messages: TopicMessage[] = [];
  const next = new Map<number, bigint>(ends.map((end) => [end.partition, BigInt(end.low)]));
  const consumer = kafka.consumer({ groupId: `multi-host-check-${randomUUID()}` });
  await consumer.connect();
  try {
    await consumer.subscribe({ topic, fromBeginning: true });
    await consumer.run({
      eachMessage: async ({ partition, message }) => {
        next.set(partition, BigInt(message.offset) + 1n);
        const eventId = message.headers?.[HEADER_EVENT_ID];
        messages.push({ partition, offset: message.offset, key: message.key?.toString() ?? null, eventId: eventId ? eventId.toString() : null, value: message.value?.toString() ?? '' });
      },
    });
    await waitFor(`${topic} read to its end`, () => ends.every((end) => next.get(end.partition)! >= BigInt(end.high)), timeoutMs);
  } finally {
    await consumer.disconnect();
  }
  // Only what was there when called: a later message must not make two reads differ.
  return messages.filter((message) => BigInt(message.offset) < BigInt(ends.find((end) => end.partition === message.partition)!.high));
}
