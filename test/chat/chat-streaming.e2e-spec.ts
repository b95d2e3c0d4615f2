// Streamed chat completions: SSE relayed chunk by chunk in OpenAI's format, the gateway's usage
// chunk only when asked for, and billing however the stream ends (finished, client gone, upstream broke).
import { startTestGateway, TestGateway } from '../support/test-gateway';
import { eventually, forwardedChatBodies } from './chat-test-helpers';

describe('POST /v1/chat/completions (streamed)', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway();
  });
  afterAll(() => gw?.close());
  beforeEach(() => gw.simulator.control.reset());

  const lastUsage = async () => {
    const measured = await gw.events('UsageMeasured');
    const priced = await gw.events('CostPriced');
    return { measured: measured.at(-1)!.data as any, priced: priced.at(-1)!.data as any, count: measured.length };
  };

  it('relays the chunks through the OpenAI SDK and ends with the usage chunk when include_usage is set', async () => {
    const stream = await gw.openai().chat.completions.create({
      model: 'aria',
      messages: [{ role: 'user', content: 'Say hello to the gateway.' }],
      stream: true,
      stream_options: { include_usage: true },
    });
    const chunks = [];
    for await (const chunk of stream) chunks.push(chunk);
    const text = chunks.map((c) => c.choices[0]?.delta?.content ?? '').join('');
    expect(text).toBe('Simulated answer about: Say hello to the gateway.');
    expect(chunks.slice(0, -1).every((c) => c.usage === null && c.model === 'aria')).toBe(true);
    const final = chunks.at(-1)!;
    expect(final.choices).toEqual([]);
    const usage = final.usage as unknown as Record<string, any>;
    expect(usage.input.text.tokens).toBe(13);
    expect(usage.output.text.tokens).toBe(10);
    expect(usage.cost_usd_micros).toBe(21);
    expect(Object.keys(usage)).toEqual(['input', 'output', 'cost_usd_micros']);
    const { measured, priced } = await lastUsage();
    // The recorded vector also counts web-search calls among the tool calls; the client's is the spec's ToolUsage.
    expect(measured.output).toEqual({ ...usage.output, tools: { ...usage.output.tools, web_search_calls: 0 } });
    expect(priced.costUsdMicros).toBe(21);
    expect(forwardedChatBodies(gw)[0].stream_options).toEqual({ include_usage: true, continuous_usage_stats: true });
  });

  it('bills a stream whose client did not ask for usage, and shows it no usage at all', async () => {
    const before = (await gw.events('UsageMeasured')).length;
    const stream = await gw.openai().chat.completions.create({
      model: 'aria',
      messages: [{ role: 'user', content: 'Say hello to the gateway.' }],
      stream: true,
    });
    const chunks = [];
    for await (const chunk of stream) chunks.push(chunk);
    expect(chunks.every((c) => !('usage' in c))).toBe(true);
    expect(chunks.at(-1)!.choices[0].finish_reason).toBe('stop');
    const { measured, priced, count } = await lastUsage();
    expect(count).toBe(before + 1);
    expect(measured.output.text.tokens).toBe(10);
    expect(priced.costUsdMicros).toBe(21);
    expect(forwardedChatBodies(gw)[0].stream_options).toEqual({ include_usage: true, continuous_usage_stats: true });
  });

  it('aborts the upstream when the client disconnects and bills the tokens already relayed', async () => {
    gw.simulator.control.set('aria', { kind: 'quirk', name: 'long_answer' });
    const before = (await gw.events('UsageMeasured')).length;
    const abort = new AbortController();
    const res = await fetch(`${gw.baseUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${gw.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'aria', messages: [{ role: 'user', content: 'Tell me a long story.' }], stream: true }),
      signal: abort.signal,
    });
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const reader = res.body!.getReader();
    let received = '';
    while ((received.match(/"content":"\s*word/g) ?? []).length < 5) received += new TextDecoder().decode((await reader.read()).value);
    abort.abort();
    const seenWords = (received.match(/"content":"\s*word/g) ?? []).length;

    const { measured, priced } = await eventually(async () => {
      const latest = await lastUsage();
      expect(latest.count).toBe(before + 1);
      return latest;
    });
    expect(measured.output.text.tokens).toBeGreaterThanOrEqual(seenWords);
    expect(measured.output.text.tokens).toBeLessThan(400);
    expect(measured.input.text.tokens).toBe(3 + 4 + 6);
    expect(priced.costUsdMicros).toBeGreaterThan(0);
    await eventually(async () => expect(gw.simulator.control.received((r) => r.path.endsWith(':closed-by-client'))).toHaveLength(1));
  });

  it('bills what was relayed when the upstream breaks mid-stream and ends the stream with an error event', async () => {
    gw.simulator.control.set('aria', { kind: 'quirk', name: 'stream_error' });
    const before = (await gw.events('UsageMeasured')).length;
    const stream = await gw.openai().chat.completions.create({ model: 'aria', messages: [{ role: 'user', content: 'Hello there' }], stream: true });
    const seen: string[] = [];
    await expect(
      (async () => {
        for await (const chunk of stream) seen.push(chunk.choices[0]?.delta?.content ?? '');
      })(),
    ).rejects.toThrow(/failed mid-stream/);
    expect(seen.join('')).toBe('Simulated answer');
    const { measured, count } = await lastUsage();
    expect(count).toBe(before + 1);
    expect(measured.output.text.tokens).toBe(2);
  });
});
