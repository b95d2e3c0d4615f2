// Start-up refuses secrets that were never filled in (the `change-me…` of a shipped manifest) or
// are too short to resist guessing, and a /metrics (spend and traffic per model) open to anyone
// on a non-loopback address. Each refusal has an explicit opt-out that turns it into a loud warning
// (docs/security.md "Secrets at start-up"). Values are never printed, only their names.
import { BlockList, isIP } from 'node:net';
import type { GatewayConfig, RuntimeEnv } from './gateway-config';

/** Generated secrets are at least this long (`openssl rand -hex 32` gives 64). */
export const MIN_SECRET_CHARS = 32;
export const ALLOW_WEAK_SECRETS = 'GATEWAY_ALLOW_WEAK_SECRETS';
export const METRICS_PUBLIC = 'GATEWAY_METRICS_PUBLIC';

/** Words of a value someone was meant to replace; a generated secret never spells them. */
const PLACEHOLDER = /change[-_ ]?me|placeholder|example|replace[-_ ]?me|secret|dummy|^x{3,}|xxx|your[-_ ]|^<.*>$|^(password|token|key|test|todo|none|null|default)$/i;

export interface StartupSecretCheck {
  /** One line each; any of them stops the start-up. */
  refusals: string[];
  /** Refusals an opt-out turned into warnings. */
  warnings: string[];
}

export function checkStartupSecrets(env: RuntimeEnv, config: GatewayConfig, processEnv: NodeJS.ProcessEnv): StartupSecretCheck {
  const weak = [
    ...envSecretProblems('GATEWAY_CURSOR_SECRET', env.cursorSecret),
    ...envSecretProblems('GATEWAY_METRICS_TOKEN', env.metrics.token),
    ...configKeyProblems(config),
    ...connectionStringProblems(env.eventStoreConnectionString),
  ];
  const open = env.metrics.enabled && env.metrics.token === null && !isLoopback(env.host)
    ? [`GET /metrics would be open to anyone on ${env.host}: set GATEWAY_METRICS_TOKEN (or GATEWAY_METRICS=off)`]
    : [];
  const result: StartupSecretCheck = { refusals: [], warnings: [] };
  sort(result, weak, optedOut(processEnv, ALLOW_WEAK_SECRETS), ALLOW_WEAK_SECRETS);
  sort(result, open, optedOut(processEnv, METRICS_PUBLIC), METRICS_PUBLIC);
  return result;
}

function sort(result: StartupSecretCheck, problems: string[], allowed: boolean, optOut: string): void {
  for (const problem of problems) {
    if (allowed) result.warnings.push(`${problem} (allowed by ${optOut}=1)`);
    else result.refusals.push(`${problem}; or set ${optOut}=1 to start anyway`);
  }
}

/** A secret from the environment: not a placeholder, at least MIN_SECRET_CHARS long. Unset is fine. */
export function envSecretProblems(name: string, value: string | null): string[] {
  if (value === null) return [];
  if (PLACEHOLDER.test(value)) return [`${name} is a placeholder value: set it to a generated secret, e.g. $(openssl rand -hex 32)`];
  if (value.length < MIN_SECRET_CHARS) return [`${name} has ${value.length} characters, fewer than ${MIN_SECRET_CHARS}: set it to a generated secret, e.g. $(openssl rand -hex 32)`];
  return [];
}

/** Upstream and service keys are issued by others, so only placeholders are refused, not length. */
function configKeyProblems(config: GatewayConfig): string[] {
  const keys: [string, string | null | undefined][] = [
    ...config.models.map((model, index): [string, string | null | undefined] => [`models[${index}].upstream.api_key (${model.id})`, model.upstream.api_key]),
    ...config.models.flatMap((model, index) =>
      (model.deployments ?? []).slice(1).map((d, j): [string, string | null | undefined] => [`models[${index}].deployments[${j + 1}].api_key (${model.id})`, d.api_key]),
    ),
    ['services.moderation.api_key', config.services.moderation?.api_key],
    ['services.diarization.api_key', config.services.diarization?.api_key],
  ];
  return keys.filter(([, key]) => typeof key === 'string' && isPlaceholder(key)).map(([where]) => `${where} is a placeholder value: set the key the upstream issued`);
}

/** The event store's password, taken from the connection string's user info (`esdb://user:password@host`). */
function connectionStringProblems(connection: string | null): string[] {
  const password = connection === null ? null : /^[a-z+]+:\/\/[^:/@]*:([^@/]*)@/i.exec(connection)?.[1];
  if (!password || !(isPlaceholder(password) || isPlaceholder(decodedOrSelf(password)))) return [];
  return ['EVENTSTORE_CONNECTION_STRING carries a placeholder password: set the event store password to a generated one'];
}

function decodedOrSelf(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

export function isPlaceholder(value: string): boolean {
  return PLACEHOLDER.test(value.trim());
}

const LOOPBACK = new BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');

export function isLoopback(host: string): boolean {
  const address = host.replace(/^\[|\]$/g, '');
  if (address.toLowerCase() === 'localhost') return true;
  const family = isIP(address);
  return family !== 0 && LOOPBACK.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

/** An opt-out switch: off unless set to an on word; a typo stops the start-up. */
export function optedOut(env: NodeJS.ProcessEnv, name: string): boolean {
  const value = (env[name] ?? '').trim().toLowerCase();
  if (['', '0', 'off', 'false', 'no'].includes(value)) return false;
  if (['1', 'on', 'true', 'yes'].includes(value)) return true;
  throw new Error(`${name} must be 1 or 0; got '${env[name]}'`);
}
