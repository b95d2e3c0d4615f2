// Cross-field rules a JSON Schema cannot express. Each problem names its path.
import type { GatewayConfig } from './gateway-config';
import type { CatalogModel, PricingMetadata } from '../catalog/catalog.types';
import { missingPrices } from '../billing/pricing/missing-prices';
import { toDecimalText } from '../common/decimal-text';
import { usdToMicros } from '../budgets/spend-limits';
import { deploymentProblems } from '../routing/deployment-config-rules';

function duplicates(values: string[]): string[] {
  const seen = new Set<string>();
  return values.filter((v) => (seen.has(v) ? true : (seen.add(v), false)));
}

function checkModels(config: GatewayConfig, declaredBoth: Set<string>): string[] {
  const problems = duplicates(config.models.map((m) => m.id)).map((id) => `models: duplicate id '${id}'`);
  const ids = new Set(config.models.map((m) => m.id));
  config.aliases.forEach((alias, i) => {
    if (ids.has(alias.id)) problems.push(`aliases[${i}].id: '${alias.id}' is also a model id`);
    alias.members.forEach((member, j) => {
      if (!ids.has(member)) problems.push(`aliases[${i}].members[${j}]: unknown model '${member}'`);
    });
  });
  config.models.forEach((model, i) => {
    if (model.kind === 'speech' && model.id !== 'chorus-design' && !(model.voices?.presets?.length ?? 0)) {
      problems.push(`models[${i}].voices.presets: a speech model needs its preset voices`);
    }
    if (model.upstream.diarization !== undefined && model.kind !== 'transcription') {
      problems.push(`models[${i}].upstream.diarization: only a transcription model produces speaker labels`);
    }
    problems.push(...deploymentProblems(model, i, declaredBoth.has(model.id)));
  });
  return problems;
}

const USD_RULE = 'a USD amount from 0 below 10^13 with at most 6 decimals';

function checkAccess(config: GatewayConfig): string[] {
  const orgIds = new Set(config.organizations.map((o) => o.id));
  const problems = duplicates(config.organizations.map((o) => o.id)).map((id) => `organizations: duplicate id '${id}'`);
  problems.push(...duplicates(config.keys.map((k) => k.id)).map((id) => `keys: duplicate id '${id}'`));
  problems.push(...duplicates(config.keys.map((k) => k.hash)).map(() => `keys: two keys share one hash`));
  config.keys.forEach((key, i) => {
    key.organizations.forEach((org, j) => {
      if (!orgIds.has(org)) problems.push(`keys[${i}].organizations[${j}]: unknown organization '${org}'`);
    });
    if (!key.organizations.includes(key.default_organization)) {
      problems.push(`keys[${i}].default_organization: '${key.default_organization}' is not one of the key's organizations`);
    }
    if (key.limit_usd != null && usdToMicros(key.limit_usd) === null) problems.push(`keys[${i}].limit_usd: ${USD_RULE}`);
  });
  problems.push(...duplicates(config.management_keys.map((k) => k.id)).map((id) => `management_keys: duplicate id '${id}'`));
  const modelHashes = new Set(config.keys.map((k) => k.hash));
  config.management_keys.forEach((key, i) => {
    if (modelHashes.has(key.hash)) problems.push(`management_keys[${i}].hash: also the hash of a model key; a key is one or the other`);
  });
  config.organizations.forEach((org, i) => {
    if (org.budget && usdToMicros(org.budget.limit_usd) === null) problems.push(`organizations[${i}].budget.limit_usd: ${USD_RULE}`);
  });
  return problems;
}

/** Every usage component a model can produce has a well-formed price; a missing one is named. */
function checkPrices(config: GatewayConfig): string[] {
  return config.models.flatMap((model, i) =>
    missingPrices(model).map((problem) => `models[${i}].${problem.includes(':') ? problem : `${problem}: missing price`}`),
  );
}

/** Prices are kept as exact decimal text: a YAML/JSON number by its shortest decimal form. */
export function normalisePrices(model: Pick<CatalogModel, 'pricing'>): void {
  const pricing = model.pricing as PricingMetadata & Record<string, unknown>;
  for (const side of [pricing.input, pricing.output]) {
    for (const units of Object.values(side)) {
      for (const [unit, value] of Object.entries(units ?? {})) {
        (units as Record<string, unknown>)[unit] = value == null ? value : toDecimalText(value);
      }
    }
  }
  for (const key of ['request', 'web_search', 'internal_reasoning'] as const) {
    if (pricing[key] != null) pricing[key] = toDecimalText(pricing[key]!);
  }
}

/** `declaredBoth`: ids of models whose file gave both `upstream.base_url` and `deployments` (load-config.ts). */
export function checkConfigSemantics(config: GatewayConfig, declaredBoth = new Set<string>()): string[] {
  const problems = [...checkModels(config, declaredBoth), ...checkAccess(config), ...checkPrices(config)];
  if (problems.length === 0) {
    config.models.forEach(normalisePrices);
    // A deployment's cost of goods is a price book too: exact decimal text.
    config.models.forEach((model) => model.deployments?.forEach((d) => d.cost && normalisePrices({ pricing: d.cost })));
    // An alias's own listed prices are kept as exact decimal text too (they are listed, not billed).
    config.aliases.forEach((alias) => alias.pricing && normalisePrices({ pricing: alias.pricing }));
  }
  return problems;
}
