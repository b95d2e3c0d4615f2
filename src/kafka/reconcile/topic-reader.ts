// Reads one topic from a start point up to the end offsets it had when reading began. The start
// offsets are committed for a fresh consumer group (deleted afterwards) before it joins, so a run never
// disturbs, or depends on, anyone's committed offsets, and a consumer restart resumes at the start.
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
  /** Next offset to accept: a restarted consumer may deliver some messages again. */
  next: bigint;
}

async function partitionRanges(admin: Admin, topic: string, since: Date | null): Promise<PartitionRange[]> {
  if (!(await admin.listTopics()).includes(topic)) return [];
  const ends = await admin.fetchTopicOffsets(topic);
  const starts = since
    ? await admin.fetchTopicOffsetsByTimestamp(topic, since.getTime() - CLOCK_SKEW_MARGIN_MS)
    : ends.map(({ partition, low }) => ({ partition, offset: low }));
  return ends
    .map(({ partition, high }) => {
      const start = BigInt(starts.find((candidate) => candidate.partition === partition)?.offset ?? high);
      return { partition, start, end: BigInt(high), next: start };
    })
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
    const partitions = ranges.map(({ partition, start }) => ({ partition, offset: start.toString() }));
    await admin.setOffsets({ groupId, topic: options.topic, partitions });
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
    await consumer.subscribe({ topics: [topic] });
    await new Promise<void>((resolve, reject) => {
      const armIdleTimer = (): void => {
        clearTimeout(idleTimer);
        idleTimer = setTimeout(() => reject(new Error(`no progress on ${topic} for ${idleTimeoutMs} ms`)), idleTimeoutMs);
      };
      armIdleTimer();
      const accept = async ({ partition, message }: { partition: number; message: KafkaMessage }): Promise<void> => {
        armIdleTimer();
        const range = remaining.get(partition);
        const offset = BigInt(message.offset);
        if (!range || offset < range.next || offset >= range.end) return;
        mapped.push(map(message));
        range.next = offset + 1n;
        if (range.next === range.end) remaining.delete(partition);
        if (remaining.size === 0) resolve();
      };
      consumer.run({ autoCommit: false, eachMessage: accept }).catch(reject);
    });
  } finally {
    clearTimeout(idleTimer);
    await consumer.disconnect();
  }
  return mapped;
}
