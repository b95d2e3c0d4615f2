// The request-body budget at and just past its edge, through real HTTP: bodies are counted as their
// bytes arrive (never by what they declare), and one is answered 503 server_busy when its arriving
// bytes cross the budget, with a Content-Length or chunked alike; a body alone is always admitted,
// and the budget comes back when a request ends, however it ends. The budget is 1 MiB here
// (GATEWAY_BODY_BUDGET_BYTES). Before, a declared length was taken before the body was sent (or the
// caller authenticated): test/platform/hostile-bodies.e2e-spec.ts shows why that was a hole.
import { request, type ClientRequest, type IncomingMessage } from 'node:http';
import { startTestGateway, type TestGateway } from '../support/test-gateway';

const KiB = 1024;
const BUDGET = 1024 * KiB;

interface Answer {
  status: number;
  retryAfter?: string;
  body: string;
}

describe('request-body budget', () => {
  let gw: TestGateway;

  beforeAll(async () => {
    process.env.GATEWAY_BODY_BUDGET_BYTES = String(BUDGET);
    gw = await startTestGateway({
      configure: (config) => {
        config.organizations[0].rate_limit = { requests: 100000, window_seconds: 60 };
        // Prompts of several MiB must be legal here, so that every admitted body gets a 200.
        const aria = config.models.find((model) => model.id === 'aria')!;
        aria.context_length = aria.top_provider.context_length = 10_000_000;
        aria.per_request_limits!.prompt_tokens = 5_000_000;
      },
    });
  });
  afterAll(async () => {
    delete process.env.GATEWAY_BODY_BUDGET_BYTES;
    await gw?.close();
  });

  /** A chat body of exactly `size` bytes (the prompt is padded with letters). */
  function chatBody(size: number): Buffer {
    const head = JSON.stringify({ model: 'aria', max_tokens: 5, messages: [{ role: 'user', content: 'Say hi.' }] });
    return Buffer.from(head.replace('"Say hi."', `"Say hi.${'a'.repeat(size - head.length)}"`));
  }

  /** Opens a request and sends `sendFirst` bytes of `body`; `answer` resolves when the response has ended. */
  function open(body: Buffer, sendFirst: number, chunked = false): { req: ClientRequest; answer: Promise<Answer> } {
    const headers: Record<string, string> = { authorization: `Bearer ${gw.apiKey}`, 'content-type': 'application/json' };
    if (!chunked) headers['content-length'] = String(body.length);
    // A connection per request: a refused body's unread rest must not meet the next request on a kept-alive socket.
    const req = request(`${gw.baseUrl}/v1/chat/completions`, { method: 'POST', headers, agent: false });
    const answer = new Promise<Answer>((resolve, reject) => {
      req.on('response', (res: IncomingMessage) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode!, retryAfter: res.headers['retry-after'] as string | undefined, body: Buffer.concat(chunks).toString() }));
      });
      req.on('error', reject);
    });
    req.flushHeaders();
    if (sendFirst > 0) req.write(body.subarray(0, sendFirst));
    return { req, answer };
  }
  const finish = (opened: { req: ClientRequest }, body: Buffer, from: number) => opened.req.end(body.subarray(from));
  const settle = () => new Promise((resolve) => setTimeout(resolve, 100));
  const expectBusy = (answer: Answer) => {
    expect([answer.status, answer.retryAfter]).toEqual([503, '1']);
    expect(JSON.parse(answer.body)).toEqual({ error: { message: expect.any(String), type: 'service_unavailable', param: null, code: 'server_busy' } });
  };

  it('admits a body that fills the budget exactly and refuses one byte more, counting what arrived', async () => {
    const holding = chatBody(600 * KiB + 1000);
    const first = open(holding, 600 * KiB); // holds the 600 KiB it sent, not the length it declared
    await settle();
    const pastBody = chatBody(BUDGET - 600 * KiB + 1);
    const past = open(pastBody, 0);
    past.req.end(pastBody);
    expectBusy(await past.answer); // its last byte crossed the budget
    past.req.destroy();
    const exact = chatBody(BUDGET - 600 * KiB);
    const fits = open(exact, 0);
    fits.req.end(exact);
    expect((await fits.answer).status).toBe(200);
    finish(first, holding, 600 * KiB);
    expect((await first.answer).status).toBe(200);
  });

  it('refuses a chunked body when it crosses the budget, and serves the one holding it', async () => {
    const holding = chatBody(600 * KiB + 1000);
    const first = open(holding, 600 * KiB);
    await settle();
    const streamed = chatBody(600 * KiB);
    const chunked = open(streamed, 300 * KiB, true);
    await settle();
    chunked.req.end(streamed.subarray(300 * KiB));
    expectBusy(await chunked.answer);
    finish(first, holding, 600 * KiB);
    expect((await first.answer).status).toBe(200);
  });

  it('always admits a body alone, even five times the budget', async () => {
    const large = chatBody(5 * BUDGET);
    const received = gw.simulator.control.received((r) => r.path === '/v1/chat/completions').length;
    const alone = open(large, 0);
    alone.req.end(large);
    const answer = await alone.answer;
    // Admitted and forwarded: what the upstream (the simulator, with a 5 MiB prompt) then answers is not the budget's concern.
    expect(answer.body).not.toContain('server_busy');
    expect(answer.status).not.toBe(503);
    expect(gw.simulator.control.received((r) => r.path === '/v1/chat/completions').length).toBeGreaterThan(received);
  });

  it('gives the budget back when a client aborts mid-body', async () => {
    const holding = chatBody(900 * KiB);
    const aborted = open(holding, 800 * KiB);
    aborted.answer.catch(() => undefined);
    await settle();
    aborted.req.destroy();
    await settle();
    const next = chatBody(900 * KiB);
    const admitted = open(next, 0);
    admitted.req.end(next);
    expect((await admitted.answer).status).toBe(200);
  });

  it('gives the budget back after every answer: 20 sequential bodies of 900 KiB are all admitted', async () => {
    for (let i = 0; i < 20; i++) {
      const body = chatBody(900 * KiB);
      const opened = open(body, 0);
      opened.req.end(body);
      expect((await opened.answer).status).toBe(200);
    }
  });
});
