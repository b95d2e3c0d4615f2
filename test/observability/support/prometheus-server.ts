// A real Prometheus server for tests: installed by ensure-prometheus.sh when missing, started on a free
// loopback port with a generated configuration and a temporary storage directory, queried over its
// HTTP API, stopped (and its directory removed) afterwards.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';

export interface ScrapeTarget {
  job: string;
  /** host:port */
  target: string;
  bearerToken?: string;
}

export interface VectorSample {
  metric: Record<string, string>;
  value: number;
}

export interface PrometheusServer {
  url: string;
  /** An instant PromQL query; throws on an API error. */
  query(promql: string): Promise<VectorSample[]>;
  stop(): Promise<void>;
}

export function ensurePrometheus(): string {
  return execFileSync('bash', [join(__dirname, '..', 'ensure-prometheus.sh')], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] }).trim();
}

export async function startPrometheus(binary: string, target: ScrapeTarget, scrapeIntervalS = 1): Promise<PrometheusServer> {
  const dir = mkdtempSync(join(tmpdir(), 'prometheus-test-'));
  const config = {
    global: { scrape_interval: `${scrapeIntervalS}s`, scrape_timeout: `${scrapeIntervalS}s`, evaluation_interval: `${scrapeIntervalS}s` },
    scrape_configs: [
      {
        job_name: target.job,
        metrics_path: '/metrics',
        static_configs: [{ targets: [target.target] }],
        ...(target.bearerToken ? { authorization: { type: 'Bearer', credentials: target.bearerToken } } : {}),
      },
    ],
  };
  writeFileSync(join(dir, 'prometheus.yml'), stringify(config));
  const port = await freePort();
  const child = spawn(binary, [`--config.file=${join(dir, 'prometheus.yml')}`, `--storage.tsdb.path=${join(dir, 'data')}`, `--web.listen-address=127.0.0.1:${port}`], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let log = '';
  child.stderr!.on('data', (chunk: Buffer) => (log = (log + chunk.toString()).slice(-20_000)));
  const url = `http://127.0.0.1:${port}`;
  const stop = () => stopChild(child).finally(() => rmSync(dir, { recursive: true, force: true }));
  try {
    await waitFor(async () => (await fetch(`${url}/-/ready`).catch(() => null))?.status === 200, 60_000, () => `prometheus did not become ready:\n${log}`);
  } catch (error) {
    await stop();
    throw error;
  }
  return { url, query: (promql) => instantQuery(url, promql), stop };
}

async function instantQuery(url: string, promql: string): Promise<VectorSample[]> {
  const response = await fetch(`${url}/api/v1/query?${new URLSearchParams({ query: promql })}`);
  const body = (await response.json()) as { status: string; error?: string; data: { resultType: string; result: { metric: Record<string, string>; value: [number, string] }[] } };
  if (body.status !== 'success') throw new Error(`PromQL ${promql} failed: ${body.error}`);
  if (body.data.resultType !== 'vector') throw new Error(`PromQL ${promql} gave a ${body.data.resultType}, not a vector`);
  return body.data.result.map((r) => ({ metric: r.metric, value: Number(r.value[1]) }));
}

/** Polls until `check` holds; the deadline only bounds a failure, it never decides a pass. */
export async function waitFor(check: () => Promise<boolean>, timeoutMs: number, describe: () => string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(describe());
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const kill = setTimeout(() => child.kill('SIGKILL'), 10_000);
    child.once('exit', () => {
      clearTimeout(kill);
      resolve();
    });
    child.kill('SIGTERM');
  });
}
