// Kafka totals (exact micros) against the gateway's cost API (USD numbers, rounded by the gateway).
import { BigDecimal } from '../../common/big-decimal';
import type { DailyCost } from './cost-totals';

export interface GatewayDayComparison {
  day: string;
  expectedUsdMicros: bigint;
  gatewayUsd: BigDecimal;
  matches: boolean;
}

export function microsToUsd(micros: bigint): BigDecimal {
  return BigDecimal.fromUnits(micros, 6);
}

/** One comparison per day either side knows about; a day absent on one side counts as zero there. */
export function compareWithGateway(
  totals: Map<string, DailyCost>,
  organizationId: string,
  gatewayDays: Map<string, BigDecimal>,
  toleranceUsd: BigDecimal,
): GatewayDayComparison[] {
  const expected = new Map<string, bigint>();
  for (const cost of totals.values()) if (cost.organizationId === organizationId) expected.set(cost.day, cost.usdMicros);
  const days = [...new Set([...expected.keys(), ...gatewayDays.keys()])].sort();
  return days.map((day) => {
    const expectedUsdMicros = expected.get(day) ?? 0n;
    const gatewayUsd = gatewayDays.get(day) ?? BigDecimal.ZERO;
    const matches = gatewayUsd.minus(microsToUsd(expectedUsdMicros)).abs().compare(toleranceUsd) <= 0;
    return { day, expectedUsdMicros, gatewayUsd, matches };
  });
}
