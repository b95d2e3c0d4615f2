// The cost read model (src/costs/read-model) against the store replay up to the read model's own
// checkpoint: a projection that is merely behind is not a difference, a wrong total is.
import { dailyKey, inWindow, recordsInWindow, sumDailyCosts, compareDailyTotals, type DailyCost, type DailyDifference, type DayWindow } from './cost-totals';
import { recordsUpTo, type StoredCostRecord } from './store-costs';

/** What CostReadModel.dailyTotalsSnapshot() returns. */
export interface DailyTotalsSnapshot {
  checkpoint: string | null;
  totals: { organizationId: string; day: string; amountUsdMicros: bigint }[];
}

export interface ReadModelCheck {
  checkpoint: string | null;
  organizationDays: number;
  /** CostPriced events in the window after the checkpoint: the read model's lag (a stopped gateway's, say), not a difference. */
  notYetApplied: number;
  differences: DailyDifference[];
}

export function checkReadModel(snapshot: DailyTotalsSnapshot, stored: StoredCostRecord[], window: DayWindow): ReadModelCheck {
  const readModel = new Map<string, DailyCost>();
  for (const total of snapshot.totals) {
    if (!inWindow(total.day, window)) continue;
    readModel.set(dailyKey(total.organizationId, total.day), { organizationId: total.organizationId, day: total.day, usdMicros: total.amountUsdMicros });
  }
  const applied = recordsInWindow(recordsUpTo(stored, snapshot.checkpoint), window);
  const replayed = sumDailyCosts(applied);
  const notYetApplied = recordsInWindow(stored, window).length - applied.length;
  return { checkpoint: snapshot.checkpoint, organizationDays: readModel.size, notYetApplied, differences: compareDailyTotals(replayed.byDay, readModel) };
}
