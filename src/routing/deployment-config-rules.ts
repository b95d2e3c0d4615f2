// Cross-field rules of a model's deployments (src/config/config-semantics.ts runs them): unique ids,
// `upstream.base_url` or `deployments` but not both, and a cost of goods complete for every component
// the model can produce (the same rule as its `pricing`), unless `cost` is omitted entirely.
import type { CatalogModel, DeploymentConfig } from '../catalog/catalog.types';
import { missingPrices } from '../billing/pricing/missing-prices';
import { deploymentsOf } from './catalog-deployments';

/** `declaredBoth`: the file gave `upstream.base_url` beside `deployments`. */
export function deploymentProblems(model: CatalogModel, index: number, declaredBoth: boolean): string[] {
  const problems: string[] = [];
  if (declaredBoth) problems.push(`models[${index}].upstream.base_url: give either upstream.base_url or deployments, not both`);
  const seen = new Set<string>();
  deploymentsOf(model).forEach((deployment, j) => {
    if (seen.has(deployment.id)) problems.push(`models[${index}].deployments[${j}].id: duplicate deployment id '${deployment.id}'`);
    seen.add(deployment.id);
    problems.push(...costProblems(model, deployment).map((p) => `models[${index}].deployments[${j}].${p}`));
  });
  return problems;
}

function costProblems(model: CatalogModel, deployment: DeploymentConfig): string[] {
  if (deployment.cost == null) return [];
  // The cost is a price book of the operator's: every component the model produces needs one, and the
  // placeholder rules apply as to `pricing` (a discount is meaningless for a cost, so it is refused).
  const problems = missingPrices({ ...model, pricing: deployment.cost }).map((p) => p.replace(/\bpricing\./g, 'cost.'));
  const named = problems.map((p) => (p.includes(':') ? p : `${p}: missing cost`));
  if (deployment.cost.discount) named.push('cost.discount: a cost of goods has no discount');
  return named;
}
