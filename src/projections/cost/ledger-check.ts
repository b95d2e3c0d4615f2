// The ledger check: replays CostPriced events from the store, sums costUsdMicros per organization and
// UTC day of occurredAt, and compares the sums with the daily cost read model exactly. Only events up to
// the read model's checkpoint are replayed, so a projection that is merely behind is not a difference.
import { comparePositions, type EventStore } from '../../event-store/event-store.port';
import type { CostPricedV1 } from '../../billing/billing.events';
import { dayOfTimestamp, type UtcDay } from '../../costs/domain/utc-day';
import type { CostReadModel } from './cost-read-model';

export interface LedgerDifference {
  organizationId: string;
  day: UtcDay;
  ledgerUsdMicros: bigint;
  readModelUsdMicros: bigint;
}

export interface LedgerCheckResult {
  /** Read model checkpoint the comparison was made at. */
  checkpoint: string | null;
  eventsReplayed: number;
  costEventsReplayed: number;
  differences: LedgerDifference[];
}

const keyOf = (organizationId: string, day: UtcDay): string => JSON.stringify([organizationId, day]);

export async function checkLedger(store: EventStore, readModel: CostReadModel, pageSize = 1024): Promise<LedgerCheckResult> {
  const { checkpoint, totals } = readModel.dailyTotalsSnapshot();
  const ledger = new Map<string, bigint>();
  let eventsReplayed = 0;
  let costEventsReplayed = 0;
  let after: string | null = null;
  while (checkpoint !== null) {
    const page = await store.readAll({ after, maxCount: pageSize });
    const covered = page.filter((event) => comparePositions(event.position, checkpoint) <= 0);
    for (const event of covered) {
      if (event.type !== 'CostPriced') continue;
      const priced = event.data as CostPricedV1;
      const key = keyOf(priced.organizationId, dayOfTimestamp(priced.occurredAt));
      ledger.set(key, (ledger.get(key) ?? 0n) + BigInt(priced.costUsdMicros ?? 0));
      costEventsReplayed++;
    }
    eventsReplayed += covered.length;
    if (covered.length < pageSize) break;
    after = page[page.length - 1].position;
  }
  const projected = new Map(totals.map((total) => [keyOf(total.organizationId, total.day), total.amountUsdMicros]));
  return { checkpoint, eventsReplayed, costEventsReplayed, differences: compare(ledger, projected) };
}

function compare(ledger: Map<string, bigint>, projected: Map<string, bigint>): LedgerDifference[] {
  const keys = [...new Set([...ledger.keys(), ...projected.keys()])].sort();
  return keys.flatMap((key) => {
    const ledgerUsdMicros = ledger.get(key) ?? 0n;
    const readModelUsdMicros = projected.get(key) ?? 0n;
    if (ledgerUsdMicros === readModelUsdMicros) return [];
    const [organizationId, day] = JSON.parse(key) as [string, UtcDay];
    return [{ organizationId, day, ledgerUsdMicros, readModelUsdMicros }];
  });
}

export function formatLedgerReport(result: LedgerCheckResult): string {
  const header = `ledger check at read model checkpoint ${result.checkpoint ?? '(none)'}: ${result.eventsReplayed} events replayed, ${result.costEventsReplayed} CostPriced`;
  if (result.differences.length === 0) return `${header}\nOK: every organization/day total matches the ledger exactly`;
  const lines = result.differences.map(
    (d) => `DIFF ${d.organizationId} ${d.day}: ledger ${d.ledgerUsdMicros} micros, read model ${d.readModelUsdMicros} micros (delta ${d.readModelUsdMicros - d.ledgerUsdMicros})`,
  );
  return [header, ...lines, `${result.differences.length} difference(s)`].join('\n');
}
