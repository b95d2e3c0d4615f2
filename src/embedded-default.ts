// With nothing configured the gateway runs on one machine: the example catalog served by the
// in-process upstream simulator, the SQLite event store, and a demo organization with a demo key.
import { statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { loadConfigFile } from './config/load-config';
import type { GatewayConfig } from './config/gateway-config';
import { generateApiKey, hashApiKey } from './access/key-hash';

// stat, not existsSync: existsSync is access(2), which checks with the real uid and without the
// process's capabilities, so a process allowed to read the files (e.g. by CAP_DAC_READ_SEARCH) would
// be told they do not exist.
const isFile = (path: string): boolean => statSync(path, { throwIfNoEntry: false })?.isFile() ?? false;

/** The repository's `config/` folder, from either `src/` (ts-node) or `dist/src/` (compiled). */
export function exampleConfigPath(): string {
  let dir = __dirname;
  while (!isFile(join(dir, 'config', 'gateway.example.yaml'))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error('config/gateway.example.yaml not found');
    dir = parent;
  }
  return join(dir, 'config', 'gateway.example.yaml');
}

export const DEMO_ORGANIZATION = 'org-demo';

export const EMBEDDED_MANAGEMENT_KEY_ID = 'mgmt-env';

/** Loads the example catalog against a simulator URL and adds a key for the demo organization (and a management key when given). */
export function embeddedConfig(simulatorUrl: string, demoKey: string | null, managementKey: string | null = null): { config: GatewayConfig; demoKey: string } {
  const config = loadConfigFile(exampleConfigPath(), { ...process.env, SIMULATOR_URL: simulatorUrl });
  const key = demoKey ?? generateApiKey();
  config.keys.push({
    id: 'key-demo',
    hash: hashApiKey(key),
    owner: 'demo',
    organizations: [DEMO_ORGANIZATION],
    default_organization: DEMO_ORGANIZATION,
  });
  if (managementKey !== null) config.management_keys.push({ id: EMBEDDED_MANAGEMENT_KEY_ID, hash: hashApiKey(managementKey) });
  return { config, demoKey: key };
}
