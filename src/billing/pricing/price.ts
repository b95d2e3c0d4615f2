// Prices a metered request against its model's price book, exactly: decimal arithmetic throughout
// and one rounding per request (see docs/pricing.md).
import type { CatalogModel, Price } from '../../catalog/catalog.types';
import { BigDecimal } from '../../common/big-decimal';
import { toDecimalText } from '../../common/decimal-text';
import type { PricedLineItem } from '../billing.events';
import { type BillableUsage, type PricedComponent, pricedComponents } from './priced-components';
import { roundOnce } from './rounding';
import { boundedMemo } from '../../common/bounded-memo';

export type { BillableUsage } from './priced-components';

export interface PricedRequest {
  costUsdMicros: number;
  lineItems: PricedLineItem[];
}

const MICROS_PER_USD = 1_000_000;

export function price(model: CatalogModel, usage: BillableUsage): PricedRequest {
  const discount = model.pricing.discount ?? 0;
  const charged = pricedComponents(model, usage)
    .map((component) => charge(component, discount))
    .filter((item): item is Charged => item !== null);
  const { total, shares } = roundOnce(charged.map(({ amount }) => amount));
  const lineItems = charged.map((item, index) => lineItem(model.id, item, shares[index]));
  return { costUsdMicros: total, lineItems };
}

interface Charged {
  component: PricedComponent;
  rate: UnitRate;
  /** quantity x unit price x 1e6 x (1 - discount), exact. */
  amount: BigDecimal;
}

/** The component's exact charge; an unpriced, unused or free component is not charged. */
function charge(component: PricedComponent, discount: number): Charged | null {
  if (component.unitPrice === null || component.unitPrice === undefined || component.quantity === 0) return null;
  const rate = unitRate(component.unitPrice, discount);
  const amount = rate.micros.times(component.quantity);
  return amount.isZero() ? null : { component, rate, amount };
}

interface UnitRate {
  /** Unit price x 1e6 x (1 - discount), exact. */
  micros: BigDecimal;
  /** The unit price as plain decimal text. */
  text: string;
}

/**
 * Rates by price and discount, worked out once: parsing and multiplying decimals was most of a
 * request's pricing time. Prices come from the catalog, so the set is small; it is bounded anyway.
 */
const unitRateOf = boundedMemo((key: string): UnitRate => {
  const [unitPrice, discount] = key.split('|');
  const multiplier = BigDecimal.of(1).minus(BigDecimal.parse(toDecimalText(Number(discount))));
  const text = toDecimalText(unitPrice);
  return { micros: BigDecimal.parse(text).times(MICROS_PER_USD).times(multiplier), text };
}, 4096);

function unitRate(unitPrice: Price, discount: number): UnitRate {
  return unitRateOf(`${unitPrice}|${discount}`);
}

function lineItem(modelId: string, { component, rate, amount }: Charged, share: number): PricedLineItem {
  return {
    name: lineItemName(modelId, component),
    side: component.side,
    modality: component.modality,
    unit: component.unit,
    quantity: String(component.quantity),
    unit_price_usd: rate.text,
    amount_usd_micros: String(share),
    exact_usd_micros: amount.toFixed(),
  };
}

/** `<model>, <side> <modality> <unit>` with underscores read as spaces; the request fee is `<model>, request`. */
export function lineItemName(modelId: string, component: Pick<PricedComponent, 'side' | 'modality' | 'unit'>): string {
  if (component.side === 'request') return `${modelId}, request`;
  return `${modelId}, ${component.side} ${component.modality} ${component.unit.replace(/_/g, ' ')}`;
}
