// The image's start-up, without Docker: the gateway runs as an unprivileged user with the environment the
// Dockerfile's runtime stage sets (NODE_ENV, HOST, PORT, GATEWAY_DATA_DIR), its data directory a fresh one
// owned by that user as the image's /data is. It must answer /healthz and the image's own HEALTHCHECK;
// with a data directory it cannot write it must stop with one clear line, not a stack trace (issue 32).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, chownSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { healthcheckCommand, imageEnv, ROOT } from './support/dockerfile';
import { unprivilegedUser, type UnprivilegedUser } from './support/unprivileged';

const user = unprivilegedUser();
const describeUnprivileged = typeof user === 'string' ? describe.skip : describe;
if (typeof user === 'string') console.warn(`unprivileged start-up test skipped: ${user}`);

interface Started {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

/**
 * The image's ENV, with PORT 0 (a free port: the test must not depend on 8080 being free here), and the
 * metrics token every deployment sets (deploy/README.md): on 0.0.0.0 start-up refuses an open /metrics.
 */
function gatewayEnv(dataDir: string): Record<string, string> {
  const env = imageEnv();
  const token = '9d2f7c4a1e8b3f60c5a7d9e2b4f8a1c3';
  return { PATH: process.env.PATH ?? '/usr/bin:/bin', ...env, GATEWAY_DATA_DIR: dataDir, PORT: '0', SIMULATOR_PORT: '0', GATEWAY_METRICS_TOKEN: token };
}

function startAs(runner: UnprivilegedUser, env: Record<string, string>): Started {
  const [command, ...args] = runner.wrap([process.execPath, '-r', 'ts-node/register/transpile-only', 'src/main.ts']);
  const child = spawn(command, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, output: () => output, exited };
}

function listeningPort(started: Started): Promise<number> {
  return new Promise((resolve, reject) => {
    const check = () => {
      const match = /listening on http:\/\/[\d.]+:(\d+)/.exec(started.output());
      if (match) resolve(Number(match[1]));
    };
    started.child.stdout!.on('data', check);
    void started.exited.then((code) => reject(new Error(`gateway exited with ${code} before listening:\n${started.output()}`)));
  });
}

describeUnprivileged('the gateway started as the image starts it, as an unprivileged user', () => {
  const runner = user as UnprivilegedUser;
  let root: string;
  beforeAll(() => {
    console.info(`unprivileged start-up test runs as ${runner.how}`);
    root = mkdtempSync(join(tmpdir(), 'gw-image-'));
    chmodSync(root, 0o755);
  });
  afterAll(() => {
    rmSync(root, { recursive: true, force: true });
    runner.release();
  });

  it('takes the container environment from the Dockerfile: data in /data, listening on all interfaces', () => {
    expect(imageEnv()).toMatchObject({ NODE_ENV: 'production', HOST: '0.0.0.0', PORT: '8080', GATEWAY_DATA_DIR: '/data' });
  });

  it('answers /healthz and the image HEALTHCHECK with a fresh data directory it owns, and writes its files there', async () => {
    const dataDir = join(root, 'owned');
    mkdirSync(dataDir);
    chownSync(dataDir, runner.uid, runner.gid);
    const started = startAs(runner, gatewayEnv(dataDir));
    try {
      const port = await listeningPort(started);
      const response = await fetch(`http://127.0.0.1:${port}/healthz`);
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ status: 'ok' });
      const [command, ...args] = healthcheckCommand();
      expect(command).toBe('node');
      const probe = spawnSync(process.execPath, args, { env: { ...gatewayEnv(dataDir), PORT: String(port) }, timeout: 10_000 });
      expect(probe.status).toBe(0);
      expect(statSync(join(dataDir, 'events.sqlite')).uid).toBe(runner.uid);
    } finally {
      started.child.kill('SIGTERM');
      await started.exited;
    }
  }, 90_000);

  it('stops with one clear line, no stack trace, when the data directory is not writable', async () => {
    const dataDir = join(root, 'foreign');
    mkdirSync(dataDir, { mode: 0o755 });
    if (runner.uid === process.getuid!()) chmodSync(dataDir, 0o555);
    const started = startAs(runner, gatewayEnv(dataDir));
    expect(await started.exited).toBe(1);
    const output = started.output();
    expect(output).toContain(`GATEWAY_DATA_DIR ${dataDir} is not writable by the gateway (uid ${runner.uid}, gid ${runner.gid}): EACCES.`);
    expect(output).not.toMatch(/\n\s+at |\\n\s+at /);
    expect(output).not.toContain('"stack"');
  }, 90_000);

  it('stops the same way when the data directory is missing and cannot be created', async () => {
    const parent = join(root, 'locked');
    mkdirSync(parent, { mode: 0o755 });
    if (runner.uid === process.getuid!()) chmodSync(parent, 0o555);
    const dataDir = join(parent, 'data');
    const started = startAs(runner, gatewayEnv(dataDir));
    expect(await started.exited).toBe(1);
    expect(started.output()).toContain(`GATEWAY_DATA_DIR ${dataDir} is not writable by the gateway`);
    expect(started.output()).not.toContain('"stack"');
  }, 90_000);
});
