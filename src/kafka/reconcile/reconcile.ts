// Finance reconciliation: what Kafka carried (deduplicated) against what the gateway recorded: the
// charges (gateway.cost-priced) and the upstream attempts with their cost of goods (gateway.upstream-attempt).
// Kafka is read first, then the read model, then the store: with no loss every consumed event is in
// the store, and anything in the store but not in Kafka is relay lag or loss, reported either way.
import type { BigDecimal } from '../../common/big-decimal';
import type { Kafka } from 'kafkajs';
import type { EventStore } from '../../event-store/event-store.port';
import { topicFor } from '../billing-topics';
import { attemptsDiffer, checkAttempts, type AttemptCheck } from './attempt-check';
import { attemptRecordFromMessage, costRecordFromMessage } from './cost-messages';
import {
  compareDailyTotals,
  compareEventIds,
  dedupByEventId,
  recordsInWindow,
  sumDailyCosts,
  type DailyDifference,
  type DailyTotals,
  type DayWindow,
} from './cost-totals';
import { fetchGatewayDailyUsd } from './gateway-costs';
import { compareWithGateway, type GatewayDayComparison } from './gateway-compare';
import { checkReadModel, type DailyTotalsSnapshot, type ReadModelCheck } from './read-model-check';
import { readStoreRecords } from './store-costs';
import { readTopic } from './topic-reader';

export interface GatewayCheck {
  baseUrl: string;
  apiKey: string;
  /** Required when Kafka carries more than one organization: the API answers for one at a time. */
  organizationId: string | null;
  toleranceUsd: BigDecimal;
}

export interface ReconcileInput {
  kafka: Kafka;
  store: EventStore;
  window: DayWindow;
  topicPrefix?: string;
  /** The cost read model (CostReadModel), when the data dir has one. */
  readModel?: { dailyTotalsSnapshot(): DailyTotalsSnapshot };
  gateway?: GatewayCheck;
  idleTimeoutMs?: number;
}

export interface ReconcileReport {
  topic: string;
  window: DayWindow;
  counts: { producedInStore: number; consumed: number; duplicatesRemoved: number; unique: number; unpriced: number };
  missingFromKafka: string[];
  unknownToStore: string[];
  kafkaTotals: DailyTotals;
  kafkaVsStore: DailyDifference[];
  readModel: ReadModelCheck | null;
  gateway: { organizationId: string; days: GatewayDayComparison[] } | null;
  /** gateway.upstream-attempt: every attempt and its cost of goods (docs/routing.md). */
  attempts: AttemptCheck;
}

export function reportHasDifferences(report: ReconcileReport): boolean {
  return (
    report.missingFromKafka.length > 0 ||
    report.unknownToStore.length > 0 ||
    report.kafkaVsStore.length > 0 ||
    (report.readModel?.differences.length ?? 0) > 0 ||
    (report.gateway?.days.some((day) => !day.matches) ?? false) ||
    attemptsDiffer(report.attempts)
  );
}

export async function reconcile(input: ReconcileInput): Promise<ReconcileReport> {
  const since = input.window.fromDay ? new Date(`${input.window.fromDay}T00:00:00Z`) : null;
  const topic = topicFor('CostPriced', undefined, input.topicPrefix);
  const attemptTopic = topicFor('UpstreamAttemptRecorded', undefined, input.topicPrefix);
  const consumedAll = await readTopic(input.kafka, { topic, since, idleTimeoutMs: input.idleTimeoutMs }, costRecordFromMessage);
  const consumedAttempts = await readTopic(input.kafka, { topic: attemptTopic, since, idleTimeoutMs: input.idleTimeoutMs }, attemptRecordFromMessage);
  const consumed = recordsInWindow(consumedAll, input.window);
  const readModelSnapshot = input.readModel?.dailyTotalsSnapshot() ?? null;
  const { costs: storedAll, attempts: storedAttempts } = await readStoreRecords(input.store);
  const stored = recordsInWindow(storedAll, input.window);
  const { unique, duplicates } = dedupByEventId(consumed);
  const kafkaTotals = sumDailyCosts(unique);
  const storeTotals = sumDailyCosts(stored);
  const ids = compareEventIds(stored, unique);
  return {
    topic,
    window: input.window,
    counts: { producedInStore: stored.length, consumed: consumed.length, duplicatesRemoved: duplicates, unique: unique.length, unpriced: kafkaTotals.unpriced },
    missingFromKafka: ids.missing,
    unknownToStore: ids.unexpected,
    kafkaTotals,
    kafkaVsStore: compareDailyTotals(kafkaTotals.byDay, storeTotals.byDay),
    readModel: readModelSnapshot ? checkReadModel(readModelSnapshot, storedAll, input.window) : null,
    gateway: input.gateway ? await checkGateway(input.gateway, kafkaTotals, input.window) : null,
    attempts: checkAttempts(attemptTopic, consumedAttempts, storedAttempts, input.window),
  };
}

function gatewayOrganization(check: GatewayCheck, totals: DailyTotals): string {
  if (check.organizationId) return check.organizationId;
  const organizations = new Set([...totals.byDay.values()].map((cost) => cost.organizationId));
  if (organizations.size === 1) return [...organizations][0];
  throw new Error(`Kafka carries ${organizations.size} organizations: name the API key's one with --organization`);
}

async function checkGateway(check: GatewayCheck, totals: DailyTotals, window: DayWindow): Promise<ReconcileReport['gateway']> {
  const organizationId = gatewayOrganization(check, totals);
  const days = [...totals.byDay.values()].filter((cost) => cost.organizationId === organizationId).map((cost) => cost.day).sort();
  const fromDay = window.fromDay ?? days[0];
  if (!fromDay) return { organizationId, days: [] };
  const gatewayDays = await fetchGatewayDailyUsd({ ...check, organizationId: check.organizationId, fromDay, untilDay: window.untilDay });
  return { organizationId, days: compareWithGateway(totals.byDay, organizationId, gatewayDays, check.toleranceUsd) };
}
