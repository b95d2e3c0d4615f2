// Loads and validates the operator configuration. Start-up refuses a bad file with a message that
// names the offending path, e.g. `models[3].pricing.input.text.tokens: not a decimal`.
import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import schema from '../../docs/gateway-config.schema.json';
import type { GatewayConfig } from './gateway-config';
import { applyDefaults } from './config-defaults';
import { checkConfigSemantics } from './config-semantics';

export class ConfigError extends Error {
  constructor(readonly problems: string[], source: string) {
    super(`invalid gateway configuration (${source}):\n  ${problems.join('\n  ')}`);
  }
}

const ajv = new Ajv2020({ allErrors: true, strict: false, useDefaults: false });
addFormats(ajv);
const validateSchema = ajv.compile(schema);

/** `/models/3/pricing` -> `models[3].pricing` */
export function toConfigPath(pointer: string): string {
  return pointer
    .split('/')
    .slice(1)
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce((path, part) => (/^\d+$/.test(part) ? `${path}[${part}]` : path ? `${path}.${part}` : part), '');
}

/** `${VAR}` and `${VAR:-default}` are replaced from the environment, so secrets stay out of the file. */
export function interpolateEnv(text: string, env: NodeJS.ProcessEnv): string {
  return text.replace(/\$\{([A-Z0-9_]+)(?::-([^}]*))?\}/g, (_m, name: string, fallback?: string) => {
    const value = env[name];
    if (value !== undefined && value !== '') return value;
    if (fallback !== undefined) return fallback;
    throw new ConfigError([`environment variable ${name} is referenced but not set`], 'environment');
  });
}

export function parseConfigText(text: string, source: string, env: NodeJS.ProcessEnv = process.env): GatewayConfig {
  let raw: unknown;
  try {
    raw = parseYaml(interpolateEnv(text, env));
  } catch (err) {
    if (err instanceof ConfigError) throw err;
    throw new ConfigError([`not valid YAML/JSON: ${(err as Error).message}`], source);
  }
  if (!validateSchema(raw)) {
    const problems = (validateSchema.errors ?? []).map((e) => {
      const path = toConfigPath(e.instancePath) || '(root)';
      const extra = e.params && 'additionalProperty' in e.params ? ` '${String(e.params.additionalProperty)}'` : '';
      return `${path}: ${e.message ?? 'invalid'}${extra}`;
    });
    throw new ConfigError([...new Set(problems)], source);
  }
  const config = applyDefaults(raw as Partial<GatewayConfig>);
  const problems = checkConfigSemantics(config, modelsDeclaringBoth(raw));
  if (problems.length > 0) throw new ConfigError(problems, source);
  return config;
}

/** Models whose file gives `upstream.base_url` beside `deployments` (defaults fill the one from the other). */
function modelsDeclaringBoth(raw: unknown): Set<string> {
  const models = (raw as { models?: Array<{ id: string; upstream?: { base_url?: string }; deployments?: unknown[] }> }).models ?? [];
  return new Set(models.filter((m) => m.upstream?.base_url !== undefined && m.deployments !== undefined).map((m) => m.id));
}

export function loadConfigFile(path: string, env: NodeJS.ProcessEnv = process.env): GatewayConfig {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new ConfigError([`cannot read file: ${(err as Error).message}`], path);
  }
  return parseConfigText(text, path, env);
}
