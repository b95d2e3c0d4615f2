// The operator's cost of goods for a served request: the usage the customer was billed for, priced
// exactly with the deployment's `cost` instead of the model's `pricing` (same components, same
// once-per-request rounding, docs/pricing.md), so margin = price - cost of goods to the micro.
import type { CatalogModel, DeploymentConfig } from '../catalog/catalog.types';
import { price, type BillableUsage } from '../billing/pricing/price';

/** The model as priced at a deployment's cost, built once per deployment (price() memoizes by model). */
const costModels = new WeakMap<DeploymentConfig, CatalogModel>();

/** Integer micros as decimal text, or null when the deployment declares no cost. */
export function costOfGoodsMicros(model: CatalogModel, deployment: DeploymentConfig, usage: BillableUsage): string | null {
  if (!deployment.cost) return null;
  let costModel = costModels.get(deployment);
  if (!costModel) costModels.set(deployment, (costModel = { ...model, pricing: { ...deployment.cost, discount: 0 } }));
  return String(price(costModel, usage).costUsdMicros);
}
