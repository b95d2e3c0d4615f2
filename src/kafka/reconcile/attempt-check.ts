// The upstream-attempt topic against the store's UpstreamAttemptRecorded, in the reconciliation window:
// Kafka's copies deduplicated by event id, then compared attempt by attempt and in totals.
import {
  compareAttempts,
  compareAttemptTotals,
  sumAttempts,
  type AttemptMismatch,
  type AttemptRecord,
  type AttemptTotal,
  type AttemptTotalDifference,
} from './attempt-totals';
import { dedupByEventId, recordsInWindow, type DayWindow } from './cost-totals';

export interface AttemptCheck {
  topic: string;
  counts: { producedInStore: number; consumed: number; duplicatesRemoved: number; unique: number; withCostOfGoods: number };
  missingFromKafka: string[];
  unknownToStore: string[];
  mismatched: AttemptMismatch[];
  kafkaTotals: Map<string, AttemptTotal>;
  differences: AttemptTotalDifference[];
}

export function checkAttempts(topic: string, consumedAll: AttemptRecord[], storedAll: AttemptRecord[], window: DayWindow): AttemptCheck {
  const consumed = recordsInWindow(consumedAll, window);
  const stored = recordsInWindow(storedAll, window);
  const { unique, duplicates } = dedupByEventId(consumed);
  const ids = compareAttempts(stored, unique);
  const kafkaTotals = sumAttempts(unique);
  return {
    topic,
    counts: {
      producedInStore: stored.length,
      consumed: consumed.length,
      duplicatesRemoved: duplicates,
      unique: unique.length,
      withCostOfGoods: unique.filter((record) => record.costOfGoodsUsdMicros !== null).length,
    },
    ...ids,
    kafkaTotals,
    differences: compareAttemptTotals(kafkaTotals, sumAttempts(stored)),
  };
}

export function attemptsDiffer(check: AttemptCheck): boolean {
  return check.missingFromKafka.length > 0 || check.unknownToStore.length > 0 || check.mismatched.length > 0 || check.differences.length > 0;
}
