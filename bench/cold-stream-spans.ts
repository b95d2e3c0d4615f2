// `npm run bench:cold-stream`: where the time to first chunk of a stream that finds the gateway idle goes
// (issue 43: 5 streams/s). The compiled gateway, pinned as in bench:gateway, with tracing on to an
// in-process OTLP receiver; after a warm-up, BENCH_COLD_STREAMS streams (40) one at a time, each after
// 200 ms of quiet, then the same against the mock upstream directly. Per stream, from its trace: how long
// each step took (admission with its durable append, validation, the upstream attempt to its response
// head), and the client's time to first chunk. Durations only: OpenTelemetry's SDK takes a span's start
// from Date.now() (whole milliseconds) and its end from the performance clock, so a span's own length is
// exact where offsets between spans are not. Medians and p90 printed; the spans cost some time of their
// own, so read the shares, not the total. Printed only.
import { join } from 'node:path';
import { rmSync } from 'node:fs';
import { Pool } from 'undici';
import { runLoad, type LoadTarget } from './lib/load';
import { writeOverheadConfig } from './gateway-config';
import { chatTargets } from './overhead/chat-requests';
import { openBenchContext, startGatewayProcess } from './overhead/overhead';
import { table } from './report/table';
import { startOtlpReceiver, type ReceivedSpan } from '../test/support/otlp-receiver';

const log = (line: string) => process.stdout.write(`${line}\n`);
const STREAMS = Number(process.env.BENCH_COLD_STREAMS ?? 40);
const QUIET_MS = 200;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function firstChunkMs(pool: Pool, target: LoadTarget): Promise<number> {
  const start = process.hrtime.bigint();
  const response = await pool.request({ method: 'POST', path: target.path, headers: target.headers, body: target.body });
  let first = NaN;
  for await (const _chunk of response.body) if (Number.isNaN(first)) first = Number(process.hrtime.bigint() - start) / 1e6;
  if (response.statusCode !== 200) throw new Error(`status ${response.statusCode}`);
  return first;
}

async function coldStreams(target: LoadTarget): Promise<number[]> {
  const pool = new Pool(target.url, { connections: 1, keepAliveTimeout: 60_000 });
  const times: number[] = [];
  for (let index = 0; index < STREAMS; index++) {
    await sleep(QUIET_MS);
    times.push(await firstChunkMs(pool, target));
  }
  await pool.close();
  return times;
}

const ms = (nanos: string | undefined) => Number(BigInt(nanos ?? '0') / 1000n) / 1000;

/** Per trace: how long each step took, ms. */
function stepsOf(server: ReceivedSpan, spans: ReceivedSpan[]): Record<string, number> {
  const inTrace = spans.filter((span) => span.traceId === server.traceId);
  const lasted = (name: string) => {
    const span = inTrace.find((candidate) => candidate.name === name);
    return span ? ms(span.endTimeUnixNano) - ms(span.startTimeUnixNano) : NaN;
  };
  return {
    'admission (authentication, rate limit, its durable append)': lasted('admission'),
    'validation (the request DTO)': lasted('validation'),
    'upstream attempt, to its response head': lasted('upstream attempt'),
  };
}

const quantile = (values: number[], q: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(q * values.length))];

async function main(): Promise<void> {
  const ctx = await openBenchContext(`cold-stream-${Date.now()}`, log);
  const receiver = await startOtlpReceiver();
  try {
    const config = writeOverheadConfig(join(ctx.runDir, 'config'));
    const tracing = { OTEL_TRACES_EXPORTER: 'otlp', OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_BSP_SCHEDULE_DELAY: '100' };
    const gateway = await startGatewayProcess(ctx, 'gateway (traced)', join(ctx.runDir, 'data'), config.path, [], tracing);
    try {
      const targets = chatTargets(gateway.url, config.apiKey);
      await runLoad(targets.completion, { connections: 10, durationS: ctx.settings.warmupS });
      await runLoad(targets.stream, { connections: 10, durationS: 2 });
      await sleep(1000);
      const before = receiver.spans.length;
      const gatewayTimes = await coldStreams(targets.stream);
      const isServer = (span: ReceivedSpan) => span.kind === 2 && span.name.startsWith('POST');
      const spans = (await receiver.waitFor((all) => all.slice(before).filter(isServer).length >= STREAMS)).slice(before);
      const directTimes = await coldStreams(chatTargets(ctx.mock.url).stream);
      const steps = spans.filter(isServer).map((server) => stepsOf(server, spans));
      const names = Object.keys(steps[0]);
      const rows = names.map((name) => [name, quantile(steps.map((s) => s[name]), 0.5), quantile(steps.map((s) => s[name]), 0.9)]);
      rows.push(['client: first chunk, through the gateway', quantile(gatewayTimes, 0.5), quantile(gatewayTimes, 0.9)]);
      rows.push(['client: first chunk, upstream directly', quantile(directTimes, 0.5), quantile(directTimes, 0.9)]);
      log(table(`${STREAMS} streams, each after ${QUIET_MS} ms of quiet: each step's length (tracing on)`, ['step', 'p50 ms', 'p90 ms'], rows));
    } finally {
      await gateway.stop();
    }
  } finally {
    await receiver.close();
    await ctx.mock.stop();
    rmSync(ctx.runDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
