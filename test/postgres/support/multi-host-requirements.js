// What the multi-host fault test (test/postgres/replicas-on-hosts.e2e-spec.ts) needs from the machine:
// root (it creates network namespaces, a bridge and veth pairs), iproute2's `ip`, `runuser` (PostgreSQL
// refuses to run as root, so its cluster runs as `nobody`) and PostgreSQL's server binaries. Plain CommonJS:
// jest.config.js leaves the file out and scripts/test.sh prints why, from this one answer.
const { existsSync, readdirSync } = require('node:fs');
const { join } = require('node:path');

const SYSTEM_DIRS = ['/usr/sbin', '/sbin', '/usr/bin', '/bin'];

function commandPath(name) {
  const dirs = [...(process.env.PATH || '').split(':').filter(Boolean), ...SYSTEM_DIRS];
  const dir = dirs.find((candidate) => existsSync(join(candidate, name)));
  return dir ? join(dir, name) : null;
}

/** POSTGRES_BIN_DIR, else the newest /usr/lib/postgresql/<version>/bin (as test/postgres/with-postgres.sh). */
function postgresBinDir() {
  if (process.env.POSTGRES_BIN_DIR) return existsSync(join(process.env.POSTGRES_BIN_DIR, 'initdb')) ? process.env.POSTGRES_BIN_DIR : null;
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return null;
  const versions = readdirSync(root)
    .filter((version) => existsSync(join(root, version, 'bin', 'initdb')))
    .sort((a, b) => Number(a) - Number(b));
  return versions.length ? join(root, versions[versions.length - 1], 'bin') : null;
}

/** Null when the test can run here; otherwise why not, in a few words. */
function multiHostUnavailableReason() {
  if (process.platform !== 'linux') return 'not Linux (it needs network namespaces)';
  if (typeof process.getuid !== 'function' || process.getuid() !== 0) return 'not root (creating network namespaces needs it)';
  if (!existsSync('/proc/self/ns/net')) return 'the kernel has no network namespaces';
  if (!commandPath('ip')) return 'no `ip` command (iproute2)';
  if (!commandPath('runuser')) return 'no `runuser` command (util-linux)';
  if (!postgresBinDir()) return 'no PostgreSQL binaries (scripts/setup.sh installs them)';
  return null;
}

module.exports = { multiHostUnavailableReason, postgresBinDir, commandPath };

if (require.main === module) {
  const reason = multiHostUnavailableReason();
  if (reason) console.log(`Multi-host fault test (test/postgres/replicas-on-hosts.e2e-spec.ts) not run: ${reason}`);
}
