// The ledger check's report: a header, one line per difference (DIFF, MISSING, FOREIGN, PARKED,
// UNPRICED), NOTE lines for what is not a difference (the read model's lag, what an operator already
// acknowledged), then OK or the count.
import type { ParkedRelayEvent } from '../../kafka/relay/relay-batch';
import { isLedgerClean, type LedgerCheckResult } from './ledger-check';

export interface LedgerReportExtras {
  /** Events the Kafka relay parked (its checkpoint file): never in Kafka, see `npm run kafka:reconcile`. */
  relayParked?: readonly ParkedRelayEvent[];
}

export function formatLedgerReport(result: LedgerCheckResult, extras: LedgerReportExtras = {}): string {
  const header =
    `ledger check of the whole store (head ${result.head ?? '(empty)'}) at read model checkpoint ${result.checkpoint ?? '(none)'}: ` +
    `${result.eventsReplayed} events replayed, ${result.costEventsReplayed} CostPriced`;
  const lines = [header, ...differenceLines(result)];
  const differences = lines.length - 1;
  lines.push(...noteLines(result, extras));
  lines.push(isLedgerClean(result) ? 'OK: every organization/day total matches the ledger exactly' : `${differences} difference(s)`);
  return lines.join('\n');
}

function differenceLines(result: LedgerCheckResult): string[] {
  const lines: string[] = [];
  if (!result.readModelPresent && result.head !== null) lines.push(`MISSING read model: no read-models.sqlite, the store holds events up to ${result.head}`);
  if (result.foreignStore !== null) lines.push(`FOREIGN read model: ${result.foreignStore}`);
  for (const d of result.differences) {
    lines.push(`DIFF ${d.organizationId} ${d.day}: ledger ${d.ledgerUsdMicros} micros, read model ${d.readModelUsdMicros} micros (delta ${d.readModelUsdMicros - d.ledgerUsdMicros})`);
  }
  for (const p of result.parked) {
    lines.push(`PARKED ${p.eventType} ${p.eventId} at ${p.position} (${p.streamId}), parked ${p.parkedAt}: ${p.reason}`);
  }
  for (const u of result.unpriced) lines.push(`UNPRICED CostPriced ${u.eventId} at ${u.position}, rejected by the fold but not parked: ${u.reason}`);
  return lines;
}

function noteLines(result: LedgerCheckResult, extras: LedgerReportExtras): string[] {
  const lag = result.eventsNotProjected === 0 ? [] : [
    `NOTE read model ${result.eventsNotProjected} event(s) behind the store head (checkpoint ${result.checkpoint ?? '(none)'}, head ${result.head}); replayed them for the comparison`,
  ];
  const acknowledged = result.acknowledgedParked.map(
    (p) => `NOTE parked ${p.eventType} ${p.eventId} at ${p.position} acknowledged ${p.acknowledgedAt}, left out of both sides: ${p.reason}`,
  );
  const relay = (extras.relayParked ?? []).map(
    (p) => `NOTE kafka relay parked ${p.eventType} ${p.eventId} at ${p.position} (${p.streamId}), never published: ${p.reason}`,
  );
  return [...lag, ...acknowledged, ...relay];
}
