// A client's keep-alive connection carries one abort signal for all its requests (request-context.ts):
// requests after the first are served and billed as usual, a disconnect still stops the request in
// flight, and the signal does not collect listeners from requests that finished.
import { Client } from 'undici';
import { startTestGateway, TestGateway } from '../support/test-gateway';
import { eventually } from './chat-test-helpers';

describe('requests on one keep-alive client connection', () => {
  let gw: TestGateway;
  let client: Client;
  beforeAll(async () => {
    gw = await startTestGateway();
  });
  afterAll(() => gw?.close());
  beforeEach(() => {
    gw.simulator.control.reset();
    client = new Client(gw.baseUrl, { pipelining: 1, keepAliveTimeout: 60_000 });
  });
  afterEach(() => client.destroy());

  const chat = (body: Record<string, unknown>, signal?: AbortSignal) =>
    client.request({
      path: '/v1/chat/completions',
      method: 'POST',
      headers: { authorization: `Bearer ${gw.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ messages: [{ role: 'user', content: 'Say hello to the gateway.' }], ...body }),
      signal,
    });

  it('serves and bills 30 requests in a row without piling up abort listeners or dropping the connection', async () => {
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => warnings.push(warning);
    process.on('warning', onWarning);
    let connects = 0;
    client.on('connect', () => connects++);
    const before = (await gw.events('CostPriced')).length;
    try {
      for (let i = 0; i < 10; i++) {
        for (const body of [{ model: 'aria' }, { model: 'aria-guarded' }, { model: 'aria', stream: true }]) {
          const res = await chat(body);
          expect(res.statusCode).toBe(200);
          await res.body.text();
        }
      }
    } finally {
      process.off('warning', onWarning);
    }
    expect(warnings.map((w) => w.name)).not.toContain('MaxListenersExceededWarning');
    expect(connects).toBe(1);
    expect((await gw.events('CostPriced')).length).toBe(before + 30);
  });

  it('aborts the request in flight when the client closes a connection that already served one', async () => {
    const first = await chat({ model: 'aria' });
    expect(first.statusCode).toBe(200);
    await first.body.text();
    gw.simulator.control.set('aria', { kind: 'quirk', name: 'long_answer' });
    const abort = new AbortController();
    const second = await chat({ model: 'aria', stream: true }, abort.signal);
    let received = '';
    for await (const chunk of second.body) {
      received += chunk.toString();
      if ((received.match(/"content":"\s*word/g) ?? []).length >= 3) break;
    }
    abort.abort();
    await eventually(async () => expect(gw.simulator.control.received((r) => r.path.endsWith(':closed-by-client'))).toHaveLength(1));
  });
});
