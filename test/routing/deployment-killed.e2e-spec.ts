// Issue 40, "one killed under load", with each deployment a simulator of its own OS process: SIGKILL
// drops every connection at once, streams in flight included (failover.e2e-spec.ts closes an in-process
// server between requests). Non-streamed requests must all succeed (failover before the first byte);
// streams already sending must end with the gateway's error event, be billed for what was relayed, and
// never be retried; streams on the other deployments finish.
import { addRoutedModel, COST, inParallel, MODEL } from './support/routed-model';
import { startTestGateway, type TestGateway } from '../support/test-gateway';
import { startSimulatorProcess, type SimulatorProcess } from '../support/simulator-process';
import { openChatStream } from '../support/chat-stream-reader';
import { postChat, eventually } from '../chat/chat-test-helpers';

const REQUESTS = 120;
const WIDTH = 6;
const STREAMS = 12;
/** Non-streamed requests answered before the kill, so the kill lands under load. */
const KILL_AFTER = 30;

describe('a deployment process killed under load', () => {
  let sims: SimulatorProcess[] = [];
  let gw: TestGateway;
  const fleet = () => gw.gateway.runtime.upstream.router.fleetOf(gw.config.models.find((m) => m.id === MODEL)!);

  beforeAll(async () => {
    sims = await Promise.all([0, 1, 2].map(() => startSimulatorProcess()));
    // 400 tokens 30 ms apart (docs/simulator.md "Quirks"): a stream lasts about 12 s, so it is mid-flight at the kill.
    for (const sim of sims) {
      await sim.setMode(MODEL, { kind: 'quirk', name: 'long_answer' });
      await warmUp(sim.url);
    }
    gw = await startTestGateway({
      configure: (config) => addRoutedModel(config, sims.map((sim) => sim.url), COST),
    });
    await eventually(async () => expect(fleet().all().map((s) => s.health.usable(Date.now()) && s.health.status === 'warm')).toEqual([true, true, true]), 30_000);
  }, 90_000);

  afterAll(async () => {
    // The simulators first: a stream a failed test left open then ends at once instead of holding the gateway's stop.
    await Promise.all(sims.map((sim) => sim.kill('SIGKILL')));
    await gw?.close();
  });

  const hi = { model: MODEL, messages: [{ role: 'user', content: 'hello there' }] };

  it('loses no non-streamed request, cuts and bills the streams it was sending, and retries none of them', async () => {
    const streams = await Promise.all(Array.from({ length: STREAMS }, () => openChatStream(gw.baseUrl, gw.apiKey, hi)));
    expect(streams.map((s) => s.status)).toEqual(streams.map(() => 200));
    // Every stream has relayed generated text (waited for, not timed): all 12 are mid-flight now.
    await Promise.all(streams.map((s) => Promise.race([s.firstContent, s.ended])));
    // The deployment carrying the most of them is the victim (at least 4 of 12 by pigeonhole); only streams are in flight.
    const inFlight = fleet().all().map((s) => ({ id: s.config.id, streams: s.inFlight, ewmaMs: s.latency.current(Date.now()) }));
    const victim = inFlight.reduce((a, b) => (b.streams > a.streams ? b : a));
    const victimIndex = Number(victim.id.replace('sim-', ''));
    expect(inFlight.reduce((sum, s) => sum + s.streams, 0)).toBe(STREAMS);

    const nonStreamed: { status: number; requestId: string }[] = [];
    let killedAt = 0;
    let chunksAtKill: number[] = [];
    let watch: VictimWatch | null = null;
    await inParallel(REQUESTS, WIDTH, async () => {
      const res = await postChat(gw, hi);
      nonStreamed.push({ status: res.status, requestId: res.headers.get('x-request-id')! });
      if (nonStreamed.length === KILL_AFTER && killedAt === 0) {
        killedAt = Date.now();
        watch = watchVictim(() => fleet().state(victim.id).health, killedAt);
        chunksAtKill = streams.map((s) => s.contentChunks());
        expect((await sims[victimIndex].kill('SIGKILL')).signal).toBe('SIGKILL');
      }
    });
    const ends = await Promise.all(streams.map((s) => s.ended));

    // Every non-streamed request answered 200: the kill cost the clients nothing.
    const failed = nonStreamed.filter((r) => r.status !== 200);
    expect(failed).toEqual([]);

    // Each request is charged once; streams are billed once their end is recorded.
    const allIds = [...nonStreamed.map((r) => r.requestId), ...streams.map((s) => s.requestId)];
    const priced = await eventually(async () => {
      const events = (await gw.events('CostPriced')).filter((e) => (e.data as any).model === MODEL);
      expect(events.length).toBe(REQUESTS + STREAMS);
      return events;
    }, 30_000);
    const chargesOf = (id: string) => priced.filter((e) => (e.data as any).requestId === id);
    expect(allIds.map((id) => chargesOf(id).length)).toEqual(allIds.map(() => 1));

    const attempts = (await gw.events('UpstreamAttemptRecorded')).map((e) => e.data as any).filter((a) => a.modelId === MODEL);
    const attemptsOf = (id: string) => attempts.filter((a) => a.requestId === id);
    const measured = new Map((await gw.events('UsageMeasured')).map((e) => [(e.data as any).requestId, e.data as any]));

    // Streams: one attempt each, never retried; those on the victim cut with an error event and billed for what was relayed.
    const cut: { chunks: number; billed: number }[] = [];
    streams.forEach((stream, i) => {
      const streamAttempts = attemptsOf(stream.requestId);
      expect(streamAttempts.map((a) => a.outcome)).toEqual(['served']);
      const end = ends[i];
      expect(end.framesAfterEnd).toBe(0);
      const outputTokens = measured.get(stream.requestId)!.output.text.tokens;
      if (streamAttempts[0].deploymentId === victim.id) {
        // A broken connection after the first chunk (docs/errors.md): the envelope as the last event, no [DONE].
        expect(end).toEqual({ finished: false, framesAfterEnd: 0, error: { type: 'upstream_error', code: 'upstream_stream_failed', param: null, message: `The model '${MODEL}' stream failed.` } });
        expect(chunksAtKill[i]).toBeGreaterThan(0);
        // Billed for what was relayed: the upstream's running usage on the last chunk the client received, one token each.
        expect(outputTokens).toBeGreaterThan(0);
        expect(outputTokens).toBe(stream.contentChunks());
        expect(Number((chargesOf(stream.requestId)[0].data as any).costUsdMicros)).toBeGreaterThan(0);
        expect(BigInt(streamAttempts[0].costOfGoodsUsdMicros)).toBeGreaterThan(0n);
        cut.push({ chunks: stream.contentChunks(), billed: outputTokens });
      } else {
        expect(end).toMatchObject({ finished: true, error: null });
        expect(outputTokens).toBe(stream.contentChunks());
      }
    });
    expect(cut.length).toBe(victim.streams);

    // Non-streamed requests: the last attempt served; any earlier one failed before a byte on the victim.
    const retried = nonStreamed.filter((r) => attemptsOf(r.requestId).length > 1);
    for (const r of nonStreamed) {
      const list = attemptsOf(r.requestId);
      expect(list.at(-1)).toMatchObject({ outcome: 'served', costOfGoodsUsdMicros: expect.stringMatching(/^\d+$/) });
      for (const failedAttempt of list.slice(0, -1)) expect(failedAttempt).toMatchObject({ deploymentId: victim.id, outcome: expect.stringMatching(/^(connect_error|timeout|upstream_5xx)$/) });
    }

    // Per deployment, by when the serving attempt got its response head (all of them in this test).
    const servedBy = (afterKill: boolean) =>
      sims.map((_, i) => nonStreamed.map((r) => attemptsOf(r.requestId).at(-1)).filter((a) => a.deploymentId === `sim-${i}` && (Date.parse(a.occurredAt) >= killedAt) === afterKill).length);
    // The router's own view of the victim: ejected by failed requests, cold by failed probes (3 at 200 ms).
    // Ejection needs 3 failed requests in a row there, which the probes may forestall; cold by probes is certain.
    await eventually(async () => expect(watch!.seen().coldMs).not.toBeNull(), 30_000);
    const { ejectedMs, coldMs } = watch!.stop();
    const changes = (await gw.events('DeploymentStatusChanged')).map((e) => e.data as any).filter((c) => c.modelId === MODEL && c.deploymentId === victim.id && Date.parse(c.observedAt) >= killedAt);
    expect(changes.length).toBeGreaterThan(0);
    console.log(
      [
        `killed ${victim.id} (SIGKILL) after ${KILL_AFTER} of ${REQUESTS} non-streamed requests (${WIDTH} at a time) with ${STREAMS} streams in flight (${inFlight.map((s) => `${s.id}: ${s.streams}, EWMA ${s.ewmaMs?.toFixed(1)} ms`).join('; ')})`,
        `non-streamed: ${nonStreamed.length} requests, ${failed.length} failed, ${retried.length} failed over (${retried.reduce((n, r) => n + attemptsOf(r.requestId).length - 1, 0)} failed attempts on ${victim.id})`,
        `served per deployment before the kill ${servedBy(false).join(' / ')}, after ${servedBy(true).join(' / ')}`,
        `streams: ${cut.length} cut with an error event (${ends.find((e) => e.error)?.error?.code}), billed output tokens / chunks received: ${cut.map((c) => `${c.billed}/${c.chunks}`).join(', ')}; ${STREAMS - cut.length} finished`,
        `${victim.id} after the kill: ejected after ${ejectedMs ?? '(not ejected)'} ms, cold by probes after ${coldMs} ms (router state); DeploymentStatusChanged ${changes.map((c) => `${c.status} +${Date.parse(c.observedAt) - killedAt} ms`).join(', ')}`,
        `a cut stream's error event: ${JSON.stringify(ends.find((e) => e.error)?.error)}`,
      ].join('\n'),
    );
  }, 120_000);
});

/**
 * A fresh process answers its first requests slowly (lazy loading, cold JIT); a deployment in service has
 * answered before. Without this, each deployment's first time-to-first-byte samples are the process's
 * start-up, and the router's latency figures (kept 10 s) hold them through the whole test.
 */
async function warmUp(url: string): Promise<void> {
  for (const stream of [false, true, false, true]) {
    const res = await fetch(`${url}/v1/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ model: 'warm-up', messages: [{ role: 'user', content: 'hello there' }], stream }) });
    expect(res.status).toBe(200);
    await res.text();
  }
}

interface VictimWatch {
  seen(): { ejectedMs: number | null; coldMs: number | null };
  stop(): { ejectedMs: number | null; coldMs: number | null };
}

/** Notes when the router first saw the killed deployment ejected and cold, checking every 10 ms from the kill on. */
function watchVictim(health: () => { isEjected(now: number): boolean; status: string }, killedAt: number): VictimWatch {
  const seen = { ejectedMs: null as number | null, coldMs: null as number | null };
  const timer = setInterval(() => {
    const now = Date.now();
    if (seen.ejectedMs === null && health().isEjected(now)) seen.ejectedMs = now - killedAt;
    if (seen.coldMs === null && health().status === 'cold') seen.coldMs = now - killedAt;
  }, 10);
  timer.unref();
  return { seen: () => ({ ...seen }), stop: () => (clearInterval(timer), { ...seen }) };
}
