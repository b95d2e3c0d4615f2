// Pure reconciliation of the upstream attempts (UpstreamAttemptRecorded, docs/routing.md): the number of
// attempts and their cost of goods per organization, model, deployment and UTC day, exactly (bigint
// micros), and attempt by attempt: ids on one side only and the same id carrying other figures.
import type { UpstreamAttemptRecordedV1 } from '../../routing/routing.events';
import { utcDay } from './cost-totals';

export interface AttemptRecord {
  eventId: string;
  organizationId: string;
  modelId: string;
  deploymentId: string;
  occurredAt: string;
  /** Exact integer micros as decimal text; null when unknown (a failed attempt, or a deployment without `cost`). */
  costOfGoodsUsdMicros: string | null;
}

export interface AttemptTotal {
  organizationId: string;
  modelId: string;
  deploymentId: string;
  day: string;
  attempts: number;
  costOfGoodsUsdMicros: bigint;
}

export interface AttemptTotalDifference {
  organizationId: string;
  modelId: string;
  deploymentId: string;
  day: string;
  kafka: { attempts: number; costOfGoodsUsdMicros: bigint };
  store: { attempts: number; costOfGoodsUsdMicros: bigint };
}

/** One attempt whose Kafka copy says something else than the store: each differing field, both values. */
export interface AttemptMismatch {
  eventId: string;
  field: 'organizationId' | 'modelId' | 'deploymentId' | 'occurredAt' | 'costOfGoodsUsdMicros';
  kafka: string | null;
  store: string | null;
}

const DECIMAL_MICROS = /^(0|[1-9][0-9]*)$/;

/** The pricing code writes non-negative integer text; anything else is refused by event id, never guessed at. */
export function exactCostOfGoods(record: AttemptRecord): bigint {
  const text = record.costOfGoodsUsdMicros;
  if (text === null) return 0n;
  if (typeof text !== 'string' || !DECIMAL_MICROS.test(text)) {
    throw new Error(`event ${record.eventId}: costOfGoodsUsdMicros ${JSON.stringify(text)} is not exact integer micros as text`);
  }
  return BigInt(text);
}

function totalKey(record: AttemptRecord, day: string): string {
  return [record.organizationId, record.modelId, record.deploymentId, day].join('\u0000');
}

export function sumAttempts(records: AttemptRecord[]): Map<string, AttemptTotal> {
  const totals = new Map<string, AttemptTotal>();
  for (const record of records) {
    const day = utcDay(record.occurredAt);
    const key = totalKey(record, day);
    const { organizationId, modelId, deploymentId } = record;
    const total = totals.get(key) ?? { organizationId, modelId, deploymentId, day, attempts: 0, costOfGoodsUsdMicros: 0n };
    total.attempts += 1;
    total.costOfGoodsUsdMicros += exactCostOfGoods(record);
    totals.set(key, total);
  }
  return totals;
}

/** Every organization, model, deployment and day where the count or the cost of goods differs; absent counts as zero. */
export function compareAttemptTotals(kafka: Map<string, AttemptTotal>, store: Map<string, AttemptTotal>): AttemptTotalDifference[] {
  const differences: AttemptTotalDifference[] = [];
  for (const key of new Set([...kafka.keys(), ...store.keys()])) {
    const entry = (kafka.get(key) ?? store.get(key)) as AttemptTotal;
    const figures = (total: AttemptTotal | undefined) => ({ attempts: total?.attempts ?? 0, costOfGoodsUsdMicros: total?.costOfGoodsUsdMicros ?? 0n });
    const left = figures(kafka.get(key));
    const right = figures(store.get(key));
    if (left.attempts === right.attempts && left.costOfGoodsUsdMicros === right.costOfGoodsUsdMicros) continue;
    const { organizationId, modelId, deploymentId, day } = entry;
    differences.push({ organizationId, modelId, deploymentId, day, kafka: left, store: right });
  }
  const order = (d: AttemptTotalDifference) => [d.organizationId, d.modelId, d.deploymentId, d.day].join('\u0000');
  return differences.sort((a, b) => order(a).localeCompare(order(b)));
}

const COMPARED_FIELDS: AttemptMismatch['field'][] = ['organizationId', 'modelId', 'deploymentId', 'occurredAt', 'costOfGoodsUsdMicros'];

export interface AttemptIdComparison {
  /** In the store, not on Kafka (relay lag or loss). */
  missingFromKafka: string[];
  /** On Kafka, unknown to the store. */
  unknownToStore: string[];
  mismatched: AttemptMismatch[];
}

/** Attempt by attempt, by event id; `kafka` is expected deduplicated (at-least-once copies are harmless). */
export function compareAttempts(store: AttemptRecord[], kafka: AttemptRecord[]): AttemptIdComparison {
  const onKafka = new Map(kafka.map((record) => [record.eventId, record]));
  const inStore = new Set(store.map((record) => record.eventId));
  const mismatched: AttemptMismatch[] = [];
  const missingFromKafka: string[] = [];
  for (const stored of store) {
    const relayed = onKafka.get(stored.eventId);
    if (!relayed) {
      missingFromKafka.push(stored.eventId);
      continue;
    }
    for (const field of COMPARED_FIELDS) {
      if (relayed[field] !== stored[field]) mismatched.push({ eventId: stored.eventId, field, kafka: relayed[field], store: stored[field] });
    }
  }
  return { missingFromKafka, unknownToStore: kafka.map((record) => record.eventId).filter((id) => !inStore.has(id)), mismatched };
}

/** The figures reconciliation compares, from an UpstreamAttemptRecorded payload (store event or Kafka message). */
export function attemptRecordOf(eventId: string, data: UpstreamAttemptRecordedV1): AttemptRecord {
  const { organizationId, modelId, deploymentId, occurredAt, costOfGoodsUsdMicros } = data;
  return { eventId, organizationId, modelId, deploymentId, occurredAt, costOfGoodsUsdMicros };
}
