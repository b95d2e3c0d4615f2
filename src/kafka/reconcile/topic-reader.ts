// Reads one topic from a start point up to the end offsets it had when reading began, with a fresh
// consumer group (deleted afterwards) so a run never disturbs, or depends on, committed offsets.
import { randomUUID } from 'node:crypto';
import type { Admin, Kafka, KafkaMessage } from 'kafkajs';

/** Messages are produced after their events occurred; the margin covers clock skew between hosts. */
export const CLOCK_SKEW_MARGIN_MS = 60 * 60 * 1000;
const DEFAULT_IDLE_TIMEOUT_MS = 30_000;

export interface TopicReadOptions {
  topic: string;
  /** Skip messages produced before this instant (minus the skew margin); null = from the beginning. */
  since: Date | null;
  idleTimeoutMs?: number;
}

interface PartitionRange {
  partition: number;
  start: bigint;
  end: bigint;
}

async function partitionRanges(admin: Admin, topic: string, since: Date | null): Promise<PartitionRange[]> {
  if (!(await admin.listTopics()).includes(topic)) return [];
  const ends = await admin.fetchTopicOffsets(topic);
  const starts = since ? await admin.fetchTopicOffsetsByTimestamp(topic, since.getTime() - CLOCK_SKEW_MARGIN_MS) : ends.map(({ partition, low }) => ({ partition, offset: low }));
  return ends
    .map(({ partition, high }) => ({
      partition,
      start: BigInt(starts.find((start) => start.partition === partition)?.offset ?? high),
      end: BigInt(high),
    }))
    .filter((range) => range.start < range.end);
}

/** Every message of `topic` from the start point to the end offsets of when the read began, mapped as it arrives. */
export async function readTopic<T>(kafka: Kafka, options: TopicReadOptions, map: (message: KafkaMessage) => T): Promise<T[]> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    const ranges = await partitionRanges(admin, options.topic, options.since);
    if (ranges.length === 0) return [];
    const groupId = `gateway-reconcile-${randomUUID()}`;
    try {
      return await consumeRanges(kafka, groupId, options.topic, ranges, options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS, map);
    } finally {
      await admin.deleteGroups([groupId]).catch(() => undefined);
    }
  } finally {
    await admin.disconnect();
  }
}

async function consumeRanges<T>(
  kafka: Kafka,
  groupId: string,
  topic: string,
  ranges: PartitionRange[],
  idleTimeoutMs: number,
  map: (message: KafkaMessage) => T,
): Promise<T[]> {
  const consumer = kafka.consumer({ groupId, allowAutoTopicCreation: false });
  const mapped: T[] = [];
  const remaining = new Map(ranges.map((range) => [range.partition, range]));
  let idleTimer: NodeJS.Timeout | undefined;
  try {
    await consumer.connect();
    await consumer.subscribe({ topics: [topic], fromBeginning: true });
    await new Promise<void>((resolve, reject) => {
      const armIdleTimer = (): void => {
        clearTimeout(idleTimer);
        idleTimer = setTimeout(() => reject(new Error(`no progress on ${topic} for ${idleTimeoutMs} ms`)), idleTimeoutMs);
      };
      armIdleTimer();
      consumer
        .run({
          autoCommit: false,
          eachMessage: async ({ partition, message }) => {
            armIdleTimer();
            const range = remaining.get(partition);
            const offset = BigInt(message.offset);
            if (!range || offset < range.start || offset >= range.end) return;
            mapped.push(map(message));
            if (offset === range.end - 1n) remaining.delete(partition);
            if (remaining.size === 0) resolve();
          },
        })
        .then(() => ranges.forEach(({ partition, start }) => consumer.seek({ topic, partition, offset: start.toString() })))
        .catch(reject);
    });
  } finally {
    clearTimeout(idleTimer);
    await consumer.disconnect();
  }
  return mapped;
}
