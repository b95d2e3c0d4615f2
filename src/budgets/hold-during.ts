// Hold, run, release on failure: the shape of every billable handler with spend limits. The request's
// maximum cost is held before its work; the charge settles the hold, and a failure releases it
// (under the error's code) before the error goes on to the client.
import { ApiError } from '../common/api-error';
import type { BudgetHolds, HoldContext } from './budget-holds';

export async function holdDuring<T>(holds: Pick<BudgetHolds, 'hold' | 'release'>, ctx: HoldContext, maxCostMicros: bigint | null, work: () => Promise<T>): Promise<T> {
  await holds.hold(ctx, maxCostMicros);
  try {
    return await work();
  } catch (error) {
    await holds.release(ctx, error instanceof ApiError ? error.code : 'request_failed');
    throw error;
  }
}
