// Kafka totals (exact micros) against the gateway's cost API (USD numbers, rounded by the gateway).
import Decimal from 'decimal.js';
import type { DailyCost } from './cost-totals';

export interface GatewayDayComparison {
  day: string;
  expectedUsdMicros: bigint;
  gatewayUsd: Decimal;
  matches: boolean;
}

const MICROS_PER_USD = new Decimal(1_000_000);

export function microsToUsd(micros: bigint): Decimal {
  return new Decimal(micros.toString()).div(MICROS_PER_USD);
}

/** One comparison per day either side knows about; a day absent on one side counts as zero there. */
export function compareWithGateway(
  totals: Map<string, DailyCost>,
  organizationId: string,
  gatewayDays: Map<string, Decimal>,
  toleranceUsd: Decimal,
): GatewayDayComparison[] {
  const expected = new Map<string, bigint>();
  for (const cost of totals.values()) if (cost.organizationId === organizationId) expected.set(cost.day, cost.usdMicros);
  const days = [...new Set([...expected.keys(), ...gatewayDays.keys()])].sort();
  return days.map((day) => {
    const expectedUsdMicros = expected.get(day) ?? 0n;
    const gatewayUsd = gatewayDays.get(day) ?? new Decimal(0);
    const matches = gatewayUsd.minus(microsToUsd(expectedUsdMicros)).abs().lte(toleranceUsd);
    return { day, expectedUsdMicros, gatewayUsd, matches };
  });
}
