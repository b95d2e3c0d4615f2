// Runs a command as an unprivileged user, the way the image runs the gateway (USER node). As root the
// command goes through setpriv (or runuser) to `nobody`; a non-root test user is unprivileged already.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { ROOT } from './dockerfile';

export interface UnprivilegedUser {
  uid: number;
  gid: number;
  /** How the user was reached, printed with the test's results. */
  how: string;
  wrap(command: string[]): string[];
}

const has = (tool: string) => spawnSync('sh', ['-c', `command -v ${tool}`]).status === 0;
const idOf = (flag: '-u' | '-g') => Number(spawnSync('id', [flag, 'nobody'], { encoding: 'utf8' }).stdout.trim() || 65534);

/** The user can start node and read the checkout (a clone under a 0700 home cannot be read by nobody). */
function canRunHere(user: UnprivilegedUser): boolean {
  const probe = `require(${JSON.stringify(join(ROOT, 'package.json'))}); require.resolve('ts-node/register/transpile-only')`;
  const [command, ...args] = user.wrap([process.execPath, '-e', probe]);
  return spawnSync(command, args, { cwd: ROOT }).status === 0;
}

function asNobody(): UnprivilegedUser | string {
  const uid = idOf('-u');
  const gid = idOf('-g');
  const candidates: UnprivilegedUser[] = [];
  if (has('setpriv')) {
    const base = ['setpriv', `--reuid=${uid}`, `--regid=${gid}`, '--clear-groups'];
    candidates.push({ uid, gid, how: `setpriv to uid ${uid}`, wrap: (command) => [...base, ...command] });
    // Only read and search rights on files it does not own (no write, no other capability): for a checkout
    // whose parent directories nobody may not enter.
    const read = ['--inh-caps=+dac_read_search', '--ambient-caps=+dac_read_search'];
    candidates.push({ uid, gid, how: `setpriv to uid ${uid} with CAP_DAC_READ_SEARCH (checkout not readable by others)`, wrap: (command) => [...base, ...read, ...command] });
  }
  if (has('runuser')) candidates.push({ uid, gid, how: `runuser to nobody (uid ${uid})`, wrap: (command) => ['runuser', '-u', 'nobody', '--', ...command] });
  if (candidates.length === 0) return 'tests run as root and neither setpriv nor runuser is installed (util-linux)';
  return candidates.find(canRunHere) ?? `nobody (uid ${uid}) cannot run node on the checkout at ${ROOT}`;
}

/** An unprivileged user, or the reason there is none (the caller skips with it). */
export function unprivilegedUser(): UnprivilegedUser | string {
  const uid = process.getuid?.();
  if (uid === undefined) return 'no POSIX user ids on this platform';
  if (uid !== 0) return { uid, gid: process.getgid!(), how: `the test user (uid ${uid})`, wrap: (command) => command };
  return asNobody();
}
