// Human-readable reconciliation report: every organization-day with its status, the upstream attempts per
// organization, model, deployment and day, then the verdict.
import { dailyKey, type DailyCost, type DailyDifference } from './cost-totals';
import type { AttemptCheck } from './attempt-check';
import type { AttemptTotal } from './attempt-totals';
import { microsToUsd } from './gateway-compare';
import { reportHasDifferences, type ReconcileReport } from './reconcile';

const LISTED_IDS = 20;

function windowText(report: ReconcileReport): string {
  return `${report.window.fromDay ?? 'earliest'} .. ${report.window.untilDay ? `${report.window.untilDay} (exclusive)` : 'now'}`;
}

function idLines(label: string, ids: string[]): string[] {
  if (ids.length === 0) return [];
  const listed = ids.slice(0, LISTED_IDS).map((id) => `    ${id}`);
  return [`  ${label}: ${ids.length}`, ...listed, ...(ids.length > LISTED_IDS ? [`    ... ${ids.length - LISTED_IDS} more`] : [])];
}

function storeDayLines(kafka: Map<string, DailyCost>, differences: DailyDifference[]): string[] {
  const differing = new Map(differences.map((difference) => [dailyKey(difference.organizationId, difference.day), difference]));
  const keys = [...new Set([...kafka.keys(), ...differing.keys()])].sort();
  return keys.map((key) => {
    const difference = differing.get(key);
    if (difference) {
      return `  DIFF   ${difference.organizationId} ${difference.day}  kafka ${difference.left} micros, store ${difference.right} micros`;
    }
    const cost = kafka.get(key) as DailyCost;
    return `  match  ${cost.organizationId} ${cost.day}  ${cost.usdMicros} micros`;
  });
}

function readModelLines(report: ReconcileReport): string[] {
  const check = report.readModel;
  if (!check) return ['cost read model: not checked (no read model in the data dir)'];
  return [
    `cost read model (checkpoint ${check.checkpoint ?? 'none'}) against the store replayed to that checkpoint: ` +
      `${check.organizationDays} organization-days, ${check.differences.length} differ` +
      (check.notYetApplied > 0 ? `; ${check.notYetApplied} CostPriced after the checkpoint not yet applied (a lag, not a difference)` : ''),
    ...check.differences.map((d) => `  DIFF   ${d.organizationId} ${d.day}  store ${d.left} micros, read model ${d.right} micros`),
  ];
}

function gatewayLines(report: ReconcileReport): string[] {
  if (!report.gateway) return ['gateway /v1/organization/costs: not checked (no --gateway-url and --api-key)'];
  return [
    `gateway /v1/organization/costs for ${report.gateway.organizationId}:`,
    ...report.gateway.days.map(
      (day) => `  ${day.matches ? 'match' : 'DIFF '}  ${day.day}  kafka ${microsToUsd(day.expectedUsdMicros).toFixed()} USD, gateway ${day.gatewayUsd.toFixed()} USD`,
    ),
  ];
}

function attemptTotalLines(check: AttemptCheck): string[] {
  const differing = new Map(check.differences.map((d) => [[d.organizationId, d.modelId, d.deploymentId, d.day].join(' '), d]));
  const kafka = new Map([...check.kafkaTotals.values()].map((t) => [[t.organizationId, t.modelId, t.deploymentId, t.day].join(' '), t]));
  return [...new Set([...kafka.keys(), ...differing.keys()])].sort().map((key) => {
    const d = differing.get(key);
    if (d) {
      return `  DIFF   ${key}  kafka ${d.kafka.attempts} attempts ${d.kafka.costOfGoodsUsdMicros} micros, store ${d.store.attempts} attempts ${d.store.costOfGoodsUsdMicros} micros`;
    }
    const total = kafka.get(key) as AttemptTotal;
    return `  match  ${key}  ${total.attempts} attempts, cost of goods ${total.costOfGoodsUsdMicros} micros`;
  });
}

function attemptLines(check: AttemptCheck): string[] {
  const { counts } = check;
  const listed = check.mismatched.slice(0, LISTED_IDS).map((m) => `    ${m.eventId} ${m.field}: kafka ${m.kafka ?? 'null'}, store ${m.store ?? 'null'}`);
  return [
    `Upstream attempts: ${check.topic} against the event store`,
    `counts: produced ${counts.producedInStore} (UpstreamAttemptRecorded in the store), consumed ${counts.consumed}, duplicates removed ${counts.duplicatesRemoved}, unique ${counts.unique}, with cost of goods ${counts.withCostOfGoods}`,
    `attempt ids: ${check.missingFromKafka.length} missing from Kafka, ${check.unknownToStore.length} in Kafka but not in the store, ${check.mismatched.length} fields differ`,
    ...idLines('missing from Kafka', check.missingFromKafka),
    ...idLines('unknown to the store', check.unknownToStore),
    ...(listed.length > 0 ? ['  differing fields:', ...listed] : []),
    ...(check.mismatched.length > LISTED_IDS ? [`    ... ${check.mismatched.length - LISTED_IDS} more`] : []),
    'attempts and cost of goods per organization, model, deployment and day, Kafka against the store (exact, USD micros):',
    ...attemptTotalLines(check),
  ];
}

export function formatReport(report: ReconcileReport): string {
  const { counts } = report;
  return [
    `Reconciliation of ${report.topic} against the event store, days ${windowText(report)}`,
    `counts: produced ${counts.producedInStore} (CostPriced in the store), consumed ${counts.consumed}, duplicates removed ${counts.duplicatesRemoved}, unique ${counts.unique}, unpriced ${counts.unpriced}`,
    `event ids: ${report.missingFromKafka.length} missing from Kafka, ${report.unknownToStore.length} in Kafka but not in the store`,
    ...idLines('missing from Kafka', report.missingFromKafka),
    ...idLines('unknown to the store', report.unknownToStore),
    'daily totals, Kafka against the store (exact, USD micros):',
    ...storeDayLines(report.kafkaTotals.byDay, report.kafkaVsStore),
    ...readModelLines(report),
    ...gatewayLines(report),
    ...attemptLines(report.attempts),
    `result: ${reportHasDifferences(report) ? 'DIFFERENCES FOUND' : 'MATCH'}`,
  ].join('\n');
}
