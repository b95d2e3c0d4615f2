// Writes an operator configuration file for child-process tests: the example catalog plus a key.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse, stringify } from 'yaml';
import { exampleConfigPath } from '../../src/embedded-default';
import { hashApiKey } from '../../src/access/key-hash';

export function writeTestConfig(dir: string, apiKey: string, mutate: (raw: any) => void = () => undefined): string {
  const raw = parse(readFileSync(exampleConfigPath(), 'utf8'));
  raw.keys = [{ id: 'key-test', hash: hashApiKey(apiKey), owner: 'test', organizations: ['org-demo'], default_organization: 'org-demo' }];
  mutate(raw);
  const path = join(dir, 'gateway.yaml');
  writeFileSync(path, stringify(raw));
  return path;
}
