// `npm run keys -- create --org ORG [--org ORG2] [--id ID] [--owner NAME] [--expires ISO] [--config FILE]`
// Prints a new key once; writes only its hash (into the config file's `keys`, or prints the entry).
import { readFileSync, writeFileSync } from 'node:fs';
import { isSeq, parseDocument } from 'yaml';
import { randomUUID } from 'node:crypto';
import { generateApiKey, hashApiKey } from '../key-hash';
import { ORGANIZATION_ID_PATTERN } from '../access.types';

interface CreateOptions {
  orgs: string[];
  id: string;
  owner: string;
  expires: string | null;
  config: string | null;
}

function parseArgs(argv: string[]): CreateOptions {
  const options: CreateOptions = { orgs: [], id: `key-${randomUUID().slice(0, 8)}`, owner: 'operator', expires: null, config: null };
  for (let i = 0; i < argv.length; i += 2) {
    const [flag, value] = [argv[i], argv[i + 1]];
    if (value === undefined) throw new Error(`${flag} needs a value`);
    if (flag === '--org') options.orgs.push(value);
    else if (flag === '--id') options.id = value;
    else if (flag === '--owner') options.owner = value;
    else if (flag === '--expires') options.expires = new Date(value).toISOString();
    else if (flag === '--config') options.config = value;
    else throw new Error(`unknown option ${flag}`);
  }
  if (options.orgs.length === 0) throw new Error('at least one --org is required');
  const bad = options.orgs.find((o) => !ORGANIZATION_ID_PATTERN.test(o));
  if (bad) throw new Error(`malformed organization id '${bad}'`);
  return options;
}

export function createKeyEntry(options: CreateOptions, plainKey = generateApiKey()) {
  const entry = {
    id: options.id,
    hash: hashApiKey(plainKey),
    owner: options.owner,
    organizations: options.orgs,
    default_organization: options.orgs[0],
    ...(options.expires ? { expires_at: options.expires } : {}),
  };
  return { plainKey, entry };
}

function main(argv: string[]): void {
  const [command, ...rest] = argv;
  if (command !== 'create') throw new Error('usage: keys create --org ORG [--org ORG] [--id ID] [--owner NAME] [--expires ISO] [--config FILE]');
  const options = parseArgs(rest);
  const { plainKey, entry } = createKeyEntry(options);
  if (options.config) {
    const doc = parseDocument(readFileSync(options.config, 'utf8'));
    const keys = doc.get('keys');
    if (isSeq(keys)) {
      keys.flow = false;
      keys.add(doc.createNode(entry));
    } else {
      doc.set('keys', doc.createNode([entry]));
    }
    writeFileSync(options.config, doc.toString());
    process.stdout.write(`added key '${entry.id}' (hash only) to ${options.config}\n`);
  } else {
    process.stdout.write(`add this entry under \`keys:\` in your configuration:\n${JSON.stringify(entry, null, 2)}\n`);
  }
  process.stdout.write(`\nAPI key (shown once, store it now): ${plainKey}\n`);
}

if (require.main === module) {
  try {
    main(process.argv.slice(2));
  } catch (err) {
    process.stderr.write(`${(err as Error).message}\n`);
    process.exit(2);
  }
}
