// Runs a command as an unprivileged user, the way the image runs the gateway (USER node). As root the
// command goes through setpriv (or runuser) to `nobody`; a non-root test user is unprivileged already.
import { spawnSync } from 'node:child_process';
import { chmodSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { ROOT } from './dockerfile';

export interface UnprivilegedUser {
  uid: number;
  gid: number;
  /** How the user was reached, printed with the test's results. */
  how: string;
  wrap(command: string[]): string[];
  /** Undoes what was changed so the user could reach the checkout (call when done). */
  release(): void;
}

const NOTHING_TO_RELEASE = () => undefined;

/**
 * Gives others search permission (x, not read) on the checkout and the directories above it that lack
 * it (a clone in a 0700 `mktemp -d`, as .ci/run makes), so `nobody` can reach the files, which are
 * readable as in the image; returns what puts the modes back. Capabilities such as CAP_DAC_READ_SEARCH
 * are no substitute: node_modules code checks files with access(2), which ignores them.
 */
function allowSearchToCheckout(): () => void {
  const changed: Array<[string, number]> = [];
  for (let dir = ROOT; ; dir = dirname(dir)) {
    const mode = statSync(dir).mode & 0o7777;
    if ((mode & 0o001) === 0) {
      chmodSync(dir, mode | 0o001);
      changed.push([dir, mode]);
    }
    if (dirname(dir) === dir) break;
  }
  return () => changed.forEach(([dir, mode]) => chmodSync(dir, mode));
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
    candidates.push({ uid, gid, how: `setpriv to uid ${uid}`, wrap: (command) => [...base, ...command], release: NOTHING_TO_RELEASE });
  }
  if (has('runuser')) {
    candidates.push({ uid, gid, how: `runuser to nobody (uid ${uid})`, wrap: (command) => ['runuser', '-u', 'nobody', '--', ...command], release: NOTHING_TO_RELEASE });
  }
  if (candidates.length === 0) return 'tests run as root and neither setpriv nor runuser is installed (util-linux)';
  const direct = candidates.find(canRunHere);
  if (direct) return direct;
  const release = allowSearchToCheckout();
  const opened = candidates.find(canRunHere);
  if (opened) return { ...opened, how: `${opened.how}, with search permission added to the checkout's directories until the test ends`, release };
  release();
  return `nobody (uid ${uid}) cannot run node on the checkout at ${ROOT}`;
}

/** An unprivileged user, or the reason there is none (the caller skips with it). */
export function unprivilegedUser(): UnprivilegedUser | string {
  const uid = process.getuid?.();
  if (uid === undefined) return 'no POSIX user ids on this platform';
  if (uid !== 0) return { uid, gid: process.getgid!(), how: `the test user (uid ${uid})`, wrap: (command) => command, release: NOTHING_TO_RELEASE };
  return asNobody();
}
