// Warm/cold model status from the readiness prober, cold-model refusal on every model endpoint,
// stale status omitted, and load shedding over a model's concurrency cap.
import { toFile } from 'openai';
import { startTestGateway, TestGateway } from '../support/test-gateway';
import { audioFixture, imageFixture } from '../fixtures/media/generate';

const PROBE_MS = 100;
// Each test waits for conditions (bounded by `until`), never for a time; jest's 5 s default is too short on a busy machine.
jest.setTimeout(60_000);
// Waits for a condition; the bound only ends a test that would never get there (busy machines are slow).
const until = async (check: () => Promise<boolean>, timeoutMs = 30_000) => {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not reached in time');
    await new Promise((r) => setTimeout(r, 25));
  }
};

describe('model status and capacity', () => {
  let gw: TestGateway;
  const statusOf = async (id: string) => {
    const listing = (await (await fetch(`${gw.baseUrl}/v1/models`)).json()) as { data: { id: string; status?: string }[] };
    return listing.data.find((m) => m.id === id)?.status;
  };
  const expectCold = async (call: () => Promise<unknown>) => {
    const err = (await call().then(() => null, (e: unknown) => e)) as { status: number; headers: Headers; error: { code: string } } | null;
    expect(err?.status).toBe(503);
    expect(err?.headers.get('retry-after')).toBe('20');
    expect(err?.error.code).toBe('model_cold');
  };

  beforeAll(async () => {
    gw = await startTestGateway({
      configure: (config) => {
        config.probe = { interval_ms: PROBE_MS, stale_after_intervals: 3 };
        config.organizations[0].rate_limit = { requests: 1000, window_seconds: 60 };
        Object.assign(config.models.find((m) => m.id === 'aria')!.upstream, { max_concurrency: 2, organization_share: 1 });
      },
    });
  });
  afterAll(() => gw.close());

  it('shows warm models from the prober', async () => {
    await until(async () => (await statusOf('aria')) === 'warm');
  });

  it('a cold model is shown cold and refused with 503 + Retry-After on every model endpoint, without billing', async () => {
    const models = ['aria', 'chorus-voices', 'rhythm', 'canvas', 'verdict'];
    for (const model of models) gw.simulator.control.set(model, { kind: 'cold', retryAfterSeconds: 30 });
    await until(async () => (await Promise.all(models.map(statusOf))).every((s) => s === 'cold'));
    const billedBefore = (await gw.events('CostPriced')).length;
    const client = gw.openai();
    const wav = await audioFixture({ kind: 'wav', seconds: 1 });
    const png = await imageFixture({ format: 'png', width: 64, height: 64 });
    await expectCold(() => client.chat.completions.create({ model: 'aria', messages: [{ role: 'user', content: 'hi' }] }));
    await expectCold(() => client.audio.speech.create({ model: 'chorus-voices', voice: 'vivian', input: 'hi' } as never));
    const [audioFile, imageFile] = [await toFile(wav, 'a.wav'), await toFile(png, 'a.png')];
    await expectCold(() => client.audio.transcriptions.create({ model: 'rhythm', file: audioFile }));
    await expectCold(() => client.images.edit({ model: 'canvas', prompt: 'hat', image: imageFile }));
    await expectCold(() =>
      client.post('/decisions', { body: { model: 'verdict', input: 'x', questions: [{ type: 'predicate', instructions: 'y' }] } }),
    );
    expect((await gw.events('CostPriced')).length).toBe(billedBefore);
  });

  it('records a change only when the status changes, and comes back warm', async () => {
    const changesWhileCold = (await gw.events('ModelStatusChanged')).length;
    await new Promise((r) => setTimeout(r, PROBE_MS * 4));
    expect((await gw.events('ModelStatusChanged')).length).toBe(changesWhileCold);
    gw.simulator.control.reset();
    await until(async () => (await statusOf('aria')) === 'warm');
    const answer = await gw.openai().chat.completions.create({ model: 'aria', messages: [{ role: 'user', content: 'hi' }] });
    expect(answer.choices[0].message.content).toBeTruthy();
    const ariaChanges = (await gw.events('ModelStatusChanged')).map((e) => e.data as { model: string; status: string }).filter((d) => d.model === 'aria');
    expect(ariaChanges.map((d) => d.status)).toEqual(['warm', 'cold', 'warm']);
  });

  it('sheds load over the concurrency cap with 503 + Retry-After instead of queueing', async () => {
    gw.simulator.control.set('aria', { kind: 'stall', ms: 600 });
    const client = gw.openai();
    const calls = Array.from({ length: 3 }, () =>
      client.chat.completions.create({ model: 'aria', messages: [{ role: 'user', content: 'slow' }] }).then(
        () => 200,
        (e: { status: number; headers: Headers; error: { code: string } }) => [e.status, e.headers.get('retry-after'), e.error.code],
      ),
    );
    const outcomes = await Promise.all(calls);
    expect(outcomes.filter((o) => o === 200)).toHaveLength(2);
    expect(outcomes).toContainEqual([503, '1', 'model_overloaded']);
    gw.simulator.control.reset();
  });

  it('omits a status nobody has confirmed for a few probe intervals', async () => {
    await gw.gateway.runtime.modelStatus.stop();
    const statuses = async () => ((await (await fetch(`${gw.baseUrl}/v1/models`)).json()) as { data: { status?: string }[] }).data.map((m) => m.status);
    expect((await statuses()).filter(Boolean).length).toBeGreaterThan(0);
    // A bound for the wait, not a timing assertion: a busy machine may take far longer than 3 intervals.
    await until(async () => (await statuses()).every((s) => s === undefined), 30_000);
  });
});
