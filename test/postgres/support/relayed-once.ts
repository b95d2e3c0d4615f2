// What "the relay continuous across hosts" means on the broker's side, as a pure check: every stored event of
// a relayed type is on its topic, nothing else is, a repeated event id (at-least-once delivery) repeats the
// same message, and an organization's events first arrive in store order on its one partition (docs/kafka.md:
// consumers deduplicate by the event-id header, and per organization the order is the store's).

/** A stored event of the relayed type, in store (global position) order. */
export interface StoredRelayedEvent {
  id: string;
  organizationId: string;
}

export interface TopicMessage {
  partition: number;
  offset: string;
  key: string | null;
  eventId: string | null;
  value: string;
}

export interface RelayedOnceReport {
  messages: number;
  /** Messages that repeat an event id already delivered (harmless for a deduplicating consumer). */
  duplicates: number;
  /** Stored, never on the topic: a gap. */
  missing: string[];
  /** On the topic without a stored event of this type behind it (or without an event-id header). */
  unexpected: string[];
  /** Event ids delivered more than once with a different key or value: deduplicating would lose data. */
  differingDuplicates: string[];
  /** Organizations on more than one partition, or whose first deliveries are not in store order. */
  outOfOrder: string[];
}

export function checkRelayedOnce(stored: StoredRelayedEvent[], messages: TopicMessage[]): RelayedOnceReport {
  const storedIds = new Set(stored.map((event) => event.id));
  const ordered = [...messages].sort((a, b) => a.partition - b.partition || Number(BigInt(a.offset) - BigInt(b.offset)));
  const first = new Map<string, TopicMessage>();
  const differing = new Set<string>();
  let duplicates = 0;
  for (const message of ordered) {
    if (message.eventId === null) continue;
    const earlier = first.get(message.eventId);
    if (!earlier) first.set(message.eventId, message);
    else {
      duplicates++;
      if (earlier.key !== message.key || earlier.value !== message.value) differing.add(message.eventId);
    }
  }
  const unexpected = ordered.filter((m) => m.eventId === null || !storedIds.has(m.eventId)).map((m) => m.eventId ?? `${m.partition}@${m.offset} (no event-id)`);
  return {
    messages: messages.length,
    duplicates,
    missing: stored.filter((event) => !first.has(event.id)).map((event) => event.id),
    unexpected,
    differingDuplicates: [...differing],
    outOfOrder: organizationsOutOfOrder(stored, first),
  };
}

/** First deliveries are in partition-offset order (the map's insertion order); each organization's must follow the store's. */
function organizationsOutOfOrder(stored: StoredRelayedEvent[], first: Map<string, TopicMessage>): string[] {
  const organizations = [...new Set(stored.map((event) => event.organizationId))];
  return organizations.filter((organization) => {
    const inStore = stored.filter((event) => event.organizationId === organization && first.has(event.id)).map((event) => event.id);
    const delivered = [...first.values()].filter((message) => inStore.includes(message.eventId!));
    const partitions = new Set(delivered.map((message) => message.partition));
    return partitions.size > 1 || delivered.some((message, index) => message.eventId !== inStore[index]);
  });
}
