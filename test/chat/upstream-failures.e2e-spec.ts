// How upstream trouble reaches a chat client: clear 502/503 envelopes, cold starts relayed with
// Retry-After and recorded for the model-status projection, 4xx relayed; none of it billed.
import { createServer } from 'node:net';
import { startTestGateway, TestGateway } from '../support/test-gateway';
import { eventually, postChat } from './chat-test-helpers';

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('upstream failures (chat)', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    const port = await closedPort();
    gw = await startTestGateway({
      configure: (config) => {
        const aria = config.models.find((m) => m.id === 'aria')!;
        // The prober checks a health URL no test breaks, so only the request path meets each failure.
        const healthy = aria.upstream.health_url!.replace('model=aria', 'model=healthy');
        const copy = (id: string, upstream: Partial<typeof aria.upstream> = {}) =>
          config.models.push({ ...aria, id, canonical_slug: `gateway/${id}`, deployments: undefined, upstream: { ...aria.upstream, health_url: healthy, ...upstream } });
        copy('aria-5xx');
        copy('aria-4xx');
        copy('aria-garbled');
        copy('aria-slow', { timeout_ms: 300 });
        copy('aria-gone', { base_url: `http://127.0.0.1:${port}/v1` });
        copy('aria-cold');
      },
    });
  });
  afterAll(() => gw?.close());
  beforeEach(() => gw.simulator.control.reset());

  const hi = (model: string, extra: Record<string, unknown> = {}) => ({ model, messages: [{ role: 'user', content: 'hi' }], ...extra });
  const billed = async () => (await gw.events('UsageMeasured')).length;

  it.each([
    ['a 5xx', () => gw.simulator.control.set('aria-5xx', { kind: 'fail', status: 500 }), 'aria-5xx', 502, 'upstream_error'],
    ['a timeout', () => gw.simulator.control.set('aria-slow', { kind: 'stall', ms: 1500 }), 'aria-slow', 502, 'upstream_timeout'],
    ['a refused connection', () => undefined, 'aria-gone', 503, 'upstream_unreachable'],
  ])('answers %s with a clear envelope and bills nothing (streamed or not)', async (_case, arrange, model, status, code) => {
    arrange();
    const before = await billed();
    for (const stream of [false, true]) {
      const res = await postChat(gw, hi(model, { stream }));
      expect(res.status).toBe(status);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect(res.body.error.code).toBe(code);
    }
    expect(await billed()).toBe(before);
  });

  it('relays a cold start as 503 with Retry-After and records it for the model status', async () => {
    gw.simulator.control.set('aria-cold', { kind: 'cold', retryAfterSeconds: 17 });
    const before = await billed();
    const res = await postChat(gw, hi('aria-cold'));
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('17');
    expect(res.body.error.code).toBe('model_cold');
    expect(await billed()).toBe(before);
    await eventually(async () => {
      const changes = (await gw.events('ModelStatusChanged')).map((e) => e.data as { model: string; status: string });
      expect(changes).toContainEqual(expect.objectContaining({ model: 'aria-cold', status: 'cold' }));
    });
  });

  it('relays an upstream 4xx with the gateway envelope and the upstream message', async () => {
    gw.simulator.control.set('aria-4xx', { kind: 'fail', status: 400, body: { error: { message: 'bad logit_bias', type: 'BadRequestError', code: 400 } } });
    const before = await billed();
    const res = await postChat(gw, hi('aria-4xx'));
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'upstream_rejected_request', message: 'bad logit_bias', type: 'invalid_request_error' });
    expect(await billed()).toBe(before);
  });

  it('maps an upstream answer that is not a chat completion to 502 without billing', async () => {
    gw.simulator.control.set('aria-garbled', { kind: 'fail', status: 200, body: { unexpected: true } });
    const before = await billed();
    const res = await postChat(gw, hi('aria-garbled'));
    expect(res.status).toBe(502);
    expect(res.body.error.code).toBe('upstream_invalid_response');
    expect(await billed()).toBe(before);
  });
});
