// `npm run bench:startup`: time from process start to /healthz and to /readyz 200 over a store of
// BENCH_STARTUP_REQUESTS billed requests (default 1,000,000), (a) from nothing (no read-models.sqlite:
// every projection folds the whole store) and (b) restarted with the read models and snapshots the
// first run persisted on SIGTERM. The gateway runs compiled (`node main.js`, as deployed), embedded
// default configuration, its data directory the generated store. Not part of `npm run bench`.
import { spawn } from 'node:child_process';
import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { buildGateway } from './lib/gateway-build';
import { REPO_ROOT } from './lib/child';
import { generateBilledStore } from './startup/billed-store';

interface StartupRun {
  label: string;
  healthzMs: number;
  readyzMs: number;
  /** /readyz's projections details seen while catching up (null: ready at the first probe). */
  catchingUp: unknown;
}

const POLL_MS = 25;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function status(url: string): Promise<{ code: number; body: any } | null> {
  try {
    const response = await fetch(url);
    return { code: response.status, body: await response.json() };
  } catch {
    return null;
  }
}

async function timeStartup(entry: string, dataDir: string, label: string): Promise<StartupRun> {
  const startedAt = performance.now();
  const child = spawn(process.execPath, [entry], { cwd: REPO_ROOT, env: { ...process.env, GATEWAY_DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'warn' }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    let base: string | null = null;
    while (!base) {
      if (child.exitCode !== null) throw new Error(`gateway exited:\n${output}`);
      base = /health probes at (http:\/\/[\d.:]+)\/healthz/.exec(output)?.[1] ?? null;
      if (!base) await sleep(5);
    }
    let healthzMs = 0;
    while (!healthzMs) {
      if ((await status(`${base}/healthz`))?.code === 200) healthzMs = performance.now() - startedAt;
      else await sleep(POLL_MS);
    }
    let catchingUp: unknown = null;
    for (;;) {
      const ready = await status(`${base}/readyz`);
      if (ready?.code === 200) break;
      catchingUp ??= ready?.body?.details?.projections ?? null;
      await sleep(POLL_MS);
    }
    return { label, healthzMs, readyzMs: performance.now() - startedAt, catchingUp };
  } finally {
    child.kill('SIGTERM');
    await exited;
  }
}

async function main(): Promise<void> {
  const requests = Number(process.env.BENCH_STARTUP_REQUESTS ?? 1_000_000);
  const entry = buildGateway();
  const dataDir = join(REPO_ROOT, '.cache', 'bench', `startup-${process.pid}`);
  mkdirSync(dataDir, { recursive: true });
  try {
    console.log(`generating a store of ${requests} billed requests (${requests * 2} events) in ${dataDir}`);
    const store = await generateBilledStore(dataDir, requests, 'org-demo', (line) => console.log(line));
    console.log(`  generated in ${store.generationSeconds.toFixed(1)} s (${Math.round(store.requests / store.generationSeconds)} requests/s)`);
    const runs: StartupRun[] = [];
    runs.push(await timeStartup(entry, dataDir, '(a) from nothing (no read-models.sqlite)'));
    runs.push(await timeStartup(entry, dataDir, '(b) persisted read models and snapshots'));
    for (const run of runs) {
      console.log(`${run.label}: /healthz ${(run.healthzMs / 1000).toFixed(2)} s, /readyz 200 ${(run.readyzMs / 1000).toFixed(2)} s after process start`);
      if (run.catchingUp) console.log(`  /readyz while catching up: ${JSON.stringify(run.catchingUp)}`);
    }
    console.log(`data dir files: ${readdirSync(dataDir).join(', ')}`);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
