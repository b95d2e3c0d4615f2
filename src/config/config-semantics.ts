// Cross-field rules a JSON Schema cannot express. Each problem names its path.
import type { GatewayConfig } from './gateway-config';

function duplicates(values: string[]): string[] {
  const seen = new Set<string>();
  return values.filter((v) => (seen.has(v) ? true : (seen.add(v), false)));
}

function checkModels(config: GatewayConfig): string[] {
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
  });
  return problems;
}

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
  });
  return problems;
}

export function checkConfigSemantics(config: GatewayConfig): string[] {
  return [...checkModels(config), ...checkAccess(config)];
}
