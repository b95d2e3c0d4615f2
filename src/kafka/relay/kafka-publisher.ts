// Publishes relay batches with kafkajs and reports success only once every message is acknowledged by
// all in-sync replicas (acks -1). After a failure the producer is rebuilt so a restarted broker is found again.
import { Partitioners, type Kafka, type Producer, type RetryOptions, type TopicMessages } from 'kafkajs';
import type { OutgoingMessage } from '../billing-topics';

export interface BatchPublisher {
  publish(messages: OutgoingMessage[]): Promise<void>;
  close(): Promise<void>;
}

/**
 * For the Kafka client the publisher is given: the relay retries with its own backoff, so kafkajs must
 * give up within a second or so (its default spends 12 s on a refused connection) and let lag show.
 */
export const RELAY_CLIENT_RETRY: RetryOptions = { retries: 2, initialRetryTime: 200, maxRetryTime: 2_000 };

export function groupByTopic(messages: OutgoingMessage[]): TopicMessages[] {
  const byTopic = new Map<string, TopicMessages>();
  for (const { topic, key, value, headers } of messages) {
    const group = byTopic.get(topic) ?? { topic, messages: [] };
    group.messages.push({ key, value, headers });
    byTopic.set(topic, group);
  }
  return [...byTopic.values()];
}

export class KafkaBatchPublisher implements BatchPublisher {
  private producer: Producer | null = null;
  private readonly readyTopics = new Set<string>();

  constructor(private readonly kafka: Kafka) {}

  async publish(messages: OutgoingMessage[]): Promise<void> {
    if (messages.length === 0) return;
    try {
      const producer = await this.connectedProducer();
      await this.ensureTopics(messages);
      await producer.sendBatch({ topicMessages: groupByTopic(messages), acks: -1 });
    } catch (error) {
      await this.close();
      throw error;
    }
  }

  async close(): Promise<void> {
    const producer = this.producer;
    this.producer = null;
    await producer?.disconnect().catch(() => undefined);
  }

  /**
   * Creates missing topics (broker defaults for partitions and replication) and waits for their leaders.
   * kafkajs retries a whole per-broker request when one partition answers "leader not available", which
   * duplicates the messages of the partitions that succeeded; a fresh auto-created topic does exactly that.
   * Where the relay may not create topics, operators create them and the error here is left to the send.
   */
  private async ensureTopics(messages: OutgoingMessage[]): Promise<void> {
    const missing = [...new Set(messages.map((message) => message.topic))].filter((topic) => !this.readyTopics.has(topic));
    if (missing.length === 0) return;
    const admin = this.kafka.admin();
    try {
      await admin.connect();
      await admin.createTopics({ topics: missing.map((topic) => ({ topic })), waitForLeaders: true });
      missing.forEach((topic) => this.readyTopics.add(topic));
    } catch {
      return;
    } finally {
      await admin.disconnect().catch(() => undefined);
    }
  }

  private async connectedProducer(): Promise<Producer> {
    if (this.producer) return this.producer;
    const producer = this.kafka.producer({
      createPartitioner: Partitioners.DefaultPartitioner,
      retry: RELAY_CLIENT_RETRY,
      // One request in flight keeps an organization's events in store order across retries.
      maxInFlightRequests: 1,
    });
    await producer.connect();
    this.producer = producer;
    return producer;
  }
}
