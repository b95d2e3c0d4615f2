// The most an image request can be charged, for its budget hold (docs/keys-and-budgets.md), from
// billing's metering and pricing.
import type { CatalogModel } from '../../catalog/catalog.types';
import type { MeasuredImage } from '../../billing/metering/measurement';
import { meter } from '../../billing/metering/meter';
import { price } from '../../billing/pricing/price';

/** Images: the input as measured and `n` output images, the most billing accepts (output-bounds.ts). */
export function maxImageCostMicros(model: CatalogModel, inputImages: MeasuredImage[], requested: number): bigint {
  return BigInt(price(model, meter(model, { input: { images: inputImages }, output: { imageCount: requested } })).costUsdMicros);
}
