// Billing's versioned event payloads; docs/events.md is their public contract (Kafka consumers depend on it).
// The other capabilities' events live beside them (rate-limits/, models/model-status/, budgets/, keys/).
import type { InputUsage, OutputUsage } from './usage';
import type { Metering } from '../catalog/catalog.types';
import type { DisputedField, DisputeSeverity } from './metering/plausibility';

export interface UsageMeasuredV1 {
  requestId: string;
  correlationId: string | null;
  organizationId: string;
  keyId: string;
  model: string;
  endpoint: string;
  input: InputUsage;
  output: OutputUsage;
  metering: Metering;
  occurredAt: string;
}

export interface PricedLineItem {
  /** e.g. `gpt-mini, input text tokens` (see docs/pricing.md). */
  name: string;
  side: 'input' | 'output' | 'request';
  modality: string;
  unit: string;
  quantity: string;
  unit_price_usd: string;
  /**
   * Whole micros (integer text): this item's share of the request's once-rounded total. The items'
   * amounts sum exactly to `costUsdMicros`, so per-day sums of line items match the totals.
   */
  amount_usd_micros: string;
  /** Exact, unrounded micros: quantity x unit price x 1e6 x (1 - discount) (see docs/pricing.md). */
  exact_usd_micros: string;
}

export interface CostPricedV1 {
  requestId: string;
  organizationId: string;
  model: string;
  endpoint: string;
  costUsdMicros: number | null;
  lineItems: PricedLineItem[];
  priceBookVersion: string;
  occurredAt: string;
}

/**
 * The upstream's usage report was disputed (docs/metering.md, "Plausibility bounds"): appended with
 * the request's UsageMeasured and CostPriced, which hold what was billed. `severity` `hard` when at
 * least one entry broke a hard bound (billed otherwise), `soft` when every entry was billed as sent
 * and is only for review. Events written before the tiers have no severity: read them as hard.
 */
export interface UsageDisputedV1 {
  requestId: string;
  organizationId: string;
  keyId: string;
  model: string;
  endpoint: string;
  severity?: DisputeSeverity;
  disputes: DisputedField[];
  occurredAt: string;
}
