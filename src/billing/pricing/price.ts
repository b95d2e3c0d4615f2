// Prices a metered request against its model's price book, exactly: decimal arithmetic throughout
// and one rounding per request (see docs/pricing.md).
import type { CatalogModel } from '../../catalog/catalog.types';
import { ExactDecimal, toDecimalText } from '../../common/decimal';
import type { PricedLineItem } from '../billing.events';
import { type BillableUsage, type PricedComponent, pricedComponents } from './priced-components';
import { roundOnce } from './rounding';

export type { BillableUsage } from './priced-components';

export interface PricedRequest {
  costUsdMicros: number;
  lineItems: PricedLineItem[];
}

const MICROS_PER_USD = 1_000_000;

export function price(model: CatalogModel, usage: BillableUsage): PricedRequest {
  const multiplier = new ExactDecimal(1).minus(toDecimalText(model.pricing.discount ?? 0));
  const charged = pricedComponents(model, usage)
    .map((component) => ({ component, amount: exactAmount(component, multiplier) }))
    .filter(({ amount }) => !amount.isZero());
  const { total, shares } = roundOnce(charged.map(({ amount }) => amount));
  const lineItems = charged.map(({ component, amount }, index) =>
    lineItem(model.id, component, amount, shares[index]),
  );
  return { costUsdMicros: total, lineItems };
}

const ZERO = new ExactDecimal(0);

/** quantity x unit price x 1e6 x (1 - discount); an unpriced or unused component costs nothing. */
function exactAmount(component: PricedComponent, multiplier: ExactDecimal): ExactDecimal {
  if (component.unitPrice === null || component.unitPrice === undefined || component.quantity === 0) return ZERO;
  return new ExactDecimal(component.unitPrice).times(component.quantity).times(MICROS_PER_USD).times(multiplier);
}

function lineItem(modelId: string, component: PricedComponent, amount: ExactDecimal, share: number): PricedLineItem {
  return {
    name: lineItemName(modelId, component),
    side: component.side,
    modality: component.modality,
    unit: component.unit,
    quantity: String(component.quantity),
    unit_price_usd: toDecimalText(component.unitPrice ?? 0),
    amount_usd_micros: String(share),
    exact_usd_micros: amount.toFixed(),
  };
}

/** `<model>, <side> <modality> <unit>` with underscores read as spaces; the request fee is `<model>, request`. */
export function lineItemName(modelId: string, component: Pick<PricedComponent, 'side' | 'modality' | 'unit'>): string {
  if (component.side === 'request') return `${modelId}, request`;
  return `${modelId}, ${component.side} ${component.modality} ${component.unit.replace(/_/g, ' ')}`;
}
