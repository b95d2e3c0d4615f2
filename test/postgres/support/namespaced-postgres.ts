// A throwaway PostgreSQL cluster serving inside one network namespace, on that namespace's address only:
// initdb as `nobody` (PostgreSQL refuses to run as root) in a temporary directory, started, restarted
// (fast shutdown) and stopped with pg_ctl inside the namespace. As test/postgres/with-postgres.sh, without
// fsync (the cluster is thrown away; a fast shutdown still checkpoints, so nothing committed is lost).
import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import { appendFileSync, chownSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { withClient } from '../../support/postgres-database';
import type { NetworkHost } from './host-network';
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { postgresBinDir } = require('./multi-host-requirements.js') as { postgresBinDir(): string | null };

const NOBODY_UID = Number(execFileSync('id', ['-u', 'nobody'], { encoding: 'utf8' }).trim());
const PORT = 5432;

export interface NamespacedPostgres {
  /** postgres://gateway@<address>:5432/gateway */
  url: string;
  /** pg_ctl restart -m fast; resolves once the server accepts connections again (the test's loop keeps running). */
  restartFast(): Promise<void>;
  /** Immediate stop and the directory removed; safe to call twice. */
  remove(): void;
}

export async function startNamespacedPostgres(host: NetworkHost): Promise<NamespacedPostgres> {
  const binDir = postgresBinDir();
  if (!binDir) throw new Error('no PostgreSQL binaries (scripts/setup.sh installs them)');
  const dir = mkdtempSync(join(tmpdir(), 'gw-multi-host-postgres-'));
  chownSync(dir, NOBODY_UID, -1);
  const data = join(dir, 'data');
  const asOwner = (tool: string, args: string[]) =>
    execFileSync('ip', ['netns', 'exec', host.namespace, 'runuser', '-u', 'nobody', '--', join(binDir, tool), ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
      encoding: 'utf8',
    });
  const options = `-c listen_addresses=${host.address} -c port=${PORT} -c unix_socket_directories=${dir} -c fsync=off -c full_page_writes=off -c max_connections=200`;
  let started = false;
  const remove = () => {
    if (started) {
      try {
        asOwner('pg_ctl', ['-D', data, '-m', 'immediate', 'stop']);
      } catch {
        // Not running any more.
      }
    }
    started = false;
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    asOwner('initdb', ['-D', data, '-U', 'gateway', '--auth=trust', '--no-sync', '-E', 'UTF8']);
    // Trust the test network's hosts (replicas and the test on the bridge); nothing else can reach it.
    appendFileSync(join(data, 'pg_hba.conf'), `host all gateway ${host.address.replace(/\.\d+$/, '.0')}/24 trust\n`);
    started = true;
    asOwner('pg_ctl', ['-D', data, '-l', join(dir, 'server.log'), '-o', options, '-w', '-t', '60', 'start']);
    const adminUrl = `postgres://gateway@${host.address}:${PORT}/postgres`;
    await withClient(adminUrl, (client) => client.query('CREATE DATABASE gateway'));
  } catch (error) {
    remove();
    throw error;
  }
  return {
    url: `postgres://gateway@${host.address}:${PORT}/gateway`,
    restartFast: async () => {
      const args = ['netns', 'exec', host.namespace, 'runuser', '-u', 'nobody', '--', join(binDir, 'pg_ctl'), '-D', data, '-l', join(dir, 'server.log'), '-m', 'fast', '-w', '-t', '60', 'restart'];
      await promisify(execFile)('ip', args);
    },
    remove,
  };
}
