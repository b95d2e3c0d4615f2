// `npm run keys -- <command>`: manages keys through the gateway's management API (GATEWAY_URL,
// GATEWAY_MANAGEMENT_KEY); the configuration file is never written. Commands:
//   create --org ORG [--org ORG2] [--name NAME] [--default-org ORG] [--expires ISO] [--limit-usd X] [--limit-reset daily|weekly|monthly]
//   list [--limit N] [--offset N] | get ID | disable ID | enable ID | revoke ID
//   budget ORG [--limit-usd X | --none] [--limit-reset R]     (no --limit-usd: shows the budget)
//   usage-format ORG [spec|openai]                             (no format: shows the one in force)
//   management-key [--id ID]   prints a new management key and the `management_keys` entry to configure
import { randomUUID } from 'node:crypto';
import { generateApiKey, hashApiKey } from '../key-hash';
import { escapeUnprintable } from '../../keys/printable-name';

export const USAGE = `usage: keys create --org ORG [--org ORG] [--name NAME] [--default-org ORG] [--expires ISO] [--limit-usd X] [--limit-reset daily|weekly|monthly]
       keys list [--limit N] [--offset N] | keys get ID | keys disable ID | keys enable ID | keys revoke ID
       keys budget ORG [--limit-usd X | --none] [--limit-reset R]
       keys usage-format ORG [spec|openai]
       keys management-key [--id ID]
env:   GATEWAY_URL (default http://127.0.0.1:8080), GATEWAY_MANAGEMENT_KEY (required except for management-key)`;

export interface ApiCall {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE' | 'PUT';
  path: string;
  body?: Record<string, unknown>;
}

interface Parsed {
  positional: string[];
  flags: Map<string, string[]>;
}

const BOOLEAN_FLAGS = new Set(['--none']);

function parse(argv: string[]): Parsed {
  const parsed: Parsed = { positional: [], flags: new Map() };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (!arg.startsWith('--')) {
      parsed.positional.push(arg);
      continue;
    }
    const value = BOOLEAN_FLAGS.has(arg) ? 'true' : argv[++i];
    if (value === undefined) throw new Error(`${arg} needs a value`);
    parsed.flags.set(arg, [...(parsed.flags.get(arg) ?? []), value]);
  }
  return parsed;
}

const one = (p: Parsed, flag: string) => p.flags.get(flag)?.at(-1);
const seg = (id: string) => encodeURIComponent(id);

function onlyFlags(p: Parsed, allowed: string[]): void {
  const unknown = [...p.flags.keys()].find((flag) => !allowed.includes(flag));
  if (unknown) throw new Error(`unknown option ${unknown}\n${USAGE}`);
}

function idOf(p: Parsed, command: string): string {
  if (p.positional.length !== 1) throw new Error(`${command} needs one key id\n${USAGE}`);
  return p.positional[0];
}

/** The management API call a command makes (pure, so it is tested without a gateway). */
export function callFor(argv: string[]): ApiCall {
  const [command, ...rest] = argv;
  const p = parse(rest);
  switch (command) {
    case 'create': {
      onlyFlags(p, ['--org', '--name', '--default-org', '--expires', '--limit-usd', '--limit-reset']);
      const organizations = p.flags.get('--org') ?? [];
      if (organizations.length === 0) throw new Error('at least one --org is required');
      const body: Record<string, unknown> = { name: one(p, '--name') ?? `cli-${randomUUID().slice(0, 8)}`, organizations };
      if (one(p, '--default-org')) body.default_organization = one(p, '--default-org');
      if (one(p, '--expires')) body.expires_at = new Date(one(p, '--expires')!).toISOString();
      if (one(p, '--limit-usd')) body.limit_usd = one(p, '--limit-usd');
      if (one(p, '--limit-reset')) body.limit_reset = one(p, '--limit-reset');
      return { method: 'POST', path: '/v1/keys', body };
    }
    case 'list': {
      onlyFlags(p, ['--limit', '--offset']);
      const query = new URLSearchParams();
      if (one(p, '--limit')) query.set('limit', one(p, '--limit')!);
      if (one(p, '--offset')) query.set('offset', one(p, '--offset')!);
      return { method: 'GET', path: `/v1/keys${query.size > 0 ? `?${query}` : ''}` };
    }
    case 'get':
      onlyFlags(p, []);
      return { method: 'GET', path: `/v1/keys/${seg(idOf(p, command))}` };
    case 'disable':
    case 'enable':
      onlyFlags(p, []);
      return { method: 'PATCH', path: `/v1/keys/${seg(idOf(p, command))}`, body: { disabled: command === 'disable' } };
    case 'revoke':
      onlyFlags(p, []);
      return { method: 'DELETE', path: `/v1/keys/${seg(idOf(p, command))}` };
    case 'budget': {
      onlyFlags(p, ['--limit-usd', '--limit-reset', '--none']);
      if (p.positional.length !== 1) throw new Error(`budget needs one organization id\n${USAGE}`);
      const path = `/v1/organizations/${seg(p.positional[0])}/budget`;
      if (one(p, '--none')) return { method: 'PUT', path, body: { limit_usd: null } };
      if (!one(p, '--limit-usd')) return { method: 'GET', path };
      return { method: 'PUT', path, body: { limit_usd: one(p, '--limit-usd'), limit_reset: one(p, '--limit-reset') ?? null } };
    }
    case 'usage-format': {
      onlyFlags(p, []);
      if (p.positional.length < 1 || p.positional.length > 2) throw new Error(`usage-format needs one organization id and at most one format\n${USAGE}`);
      const path = `/v1/organizations/${seg(p.positional[0])}/usage-format`;
      // The gateway checks the value (422 names the allowed ones).
      return p.positional.length === 1 ? { method: 'GET', path } : { method: 'PUT', path, body: { usage_format: p.positional[1] } };
    }
    default:
      throw new Error(USAGE);
  }
}

/** A new management key and the entry that configures it (only its hash). */
export function newManagementKey(id = `mgmt-${randomUUID().slice(0, 8)}`, plainKey = generateApiKey()) {
  return { plainKey, entry: { id, hash: hashApiKey(plainKey) } };
}

export interface CliIo {
  env: NodeJS.ProcessEnv;
  fetch: typeof fetch;
  out: (text: string) => void;
}

/** Runs one command; resolves with the exit code (0 done, 1 refused by the gateway, 2 usage). */
export async function runKeysCli(argv: string[], io: CliIo): Promise<number> {
  if (argv[0] === 'management-key') {
    const { plainKey, entry } = newManagementKey(one(parse(argv.slice(1)), '--id'));
    io.out(`add this entry under \`management_keys:\` in your configuration:\n${JSON.stringify(entry, null, 2)}\n\nmanagement key (shown once, store it now): ${plainKey}\n`);
    return 0;
  }
  const managementKey = io.env.GATEWAY_MANAGEMENT_KEY;
  if (!managementKey) throw new Error(`GATEWAY_MANAGEMENT_KEY is not set\n${USAGE}`);
  const call = callFor(argv);
  const base = (io.env.GATEWAY_URL ?? 'http://127.0.0.1:8080').replace(/\/+$/, '');
  const response = await io.fetch(`${base}${call.path}`, {
    method: call.method,
    headers: { authorization: `Bearer ${managementKey}`, ...(call.body ? { 'content-type': 'application/json' } : {}) },
    body: call.body ? JSON.stringify(call.body) : undefined,
  });
  const answer = (await response.json()) as Record<string, any>;
  // Names (and anything else a gateway answers) may hold terminal controls stored before they were refused.
  if (!response.ok) {
    io.out(`${response.status} ${escapeUnprintable(`${answer.error?.code ?? ''}: ${answer.error?.message ?? JSON.stringify(answer)}`)}\n`);
    return 1;
  }
  const { key, ...shown } = answer;
  io.out(`${JSON.stringify(shown, null, 2).split('\n').map(escapeUnprintable).join('\n')}\n`);
  if (typeof key === 'string') io.out(`\nAPI key (shown once, store it now): ${key}\n`);
  return 0;
}

if (require.main === module) {
  runKeysCli(process.argv.slice(2), { env: process.env, fetch, out: (text) => process.stdout.write(text) })
    .then((code) => process.exit(code))
    .catch((err: unknown) => {
      process.stderr.write(`${(err as Error).message}\n`);
      process.exit(2);
    });
}
