// Everything the upstream answers reaches the client unchanged (tool calls, citations, logprobs,
// audio), and the work in it is metered: tool calls, web searches and the audio's measured duration.
import { startTestGateway, TestGateway } from '../support/test-gateway';
import { postChat } from './chat-test-helpers';

const hello = [{ role: 'user' as const, content: 'Say hello to the gateway.' }];

describe('answer pass-through and output metering (aria)', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway();
  });
  afterAll(() => gw?.close());
  beforeEach(() => gw.simulator.control.reset());

  it('relays function tool calls and counts them', async () => {
    const completion = await gw.openai().chat.completions.create({
      model: 'aria',
      messages: [{ role: 'user', content: 'Weather in Paris?' }],
      tools: [{ type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: {} } } }],
    });
    expect(completion.choices[0].finish_reason).toBe('tool_calls');
    expect(completion.choices[0].message.tool_calls).toEqual([
      { id: 'call_sim_1', type: 'function', function: { name: 'get_weather', arguments: '{"query":"Weather in Paris?"}' } },
    ]);
    expect((completion.usage as any).output.tools).toEqual({ call_count: 1, tokens: 0 });
  });

  it('relays custom tool calls, streamed too, and counts them', async () => {
    const body = { model: 'aria', messages: [{ role: 'user', content: 'Run it' }], tools: [{ type: 'custom', custom: { name: 'shell' } }] };
    const res = await postChat(gw, body);
    expect(res.body.choices[0].message.tool_calls).toEqual([{ id: 'call_sim_1', type: 'custom', custom: { name: 'shell', input: 'Run it' } }]);
    const stream = await gw.openai().chat.completions.create({ ...(body as any), stream: true, stream_options: { include_usage: true } });
    const calls = [];
    let usage: any = null;
    for await (const chunk of stream as any) {
      calls.push(...(chunk.choices[0]?.delta?.tool_calls ?? []));
      usage = chunk.usage ?? usage;
    }
    expect(calls[0]).toEqual({ index: 0, id: 'call_sim_1', type: 'custom', custom: { name: 'shell', input: '' } });
    expect(calls.map((c) => c.custom.input).join('')).toBe('Run it');
    expect(usage.output.tools.call_count).toBe(1);
  });

  it('relays logprobs unchanged, streamed and not', async () => {
    const completion = await gw.openai().chat.completions.create({ model: 'aria', messages: hello, logprobs: true, top_logprobs: 1 });
    const entries = completion.choices[0].logprobs!.content!;
    expect(entries).toHaveLength(10);
    expect(entries[0]).toEqual({ token: 'Simulated', logprob: -0.125, bytes: [...Buffer.from('Simulated')], top_logprobs: [{ token: 'Simulated', logprob: -0.125, bytes: [...Buffer.from('Simulated')] }] });
    const stream = await gw.openai().chat.completions.create({ model: 'aria', messages: hello, logprobs: true, stream: true });
    const streamed = [];
    for await (const chunk of stream) streamed.push(...(chunk.choices[0]?.logprobs?.content ?? []));
    expect(streamed.map((e) => e.token).join('')).toBe('Simulated answer about: Say hello to the gateway.');
  });

  it('relays URL citations and prices the web search', async () => {
    const completion = await gw.openai().chat.completions.create({ model: 'aria', messages: hello, web_search_options: {} });
    expect(completion.choices[0].message.annotations).toEqual([
      { type: 'url_citation', url_citation: { start_index: 0, end_index: 49, title: 'Simulated source', url: 'https://example.com/simulated-source' } },
    ]);
    const usage = completion.usage as any;
    // The spec's ToolUsage: the search shows in the cost (the recorded vector counts web_search_calls).
    expect(usage.output.tools).toEqual({ call_count: 1, tokens: 0 });
    // 21 micros of tokens + one search at 0.01 USD
    expect(usage.cost_usd_micros).toBe(21 + 10_000);
  });

  it('relays audio output and bills its duration measured from the audio', async () => {
    const completion = await gw.openai().chat.completions.create({
      model: 'aria', messages: hello, modalities: ['text', 'audio'], audio: { voice: 'alloy', format: 'wav' },
    });
    const audio = completion.choices[0].message.audio!;
    expect(audio.transcript).toBe('Simulated answer about: Say hello to the gateway.');
    expect(Buffer.from(audio.data, 'base64').toString('latin1', 0, 4)).toBe('RIFF');
    expect(typeof audio.expires_at).toBe('number');
    const usage = completion.usage as any;
    // 10 spoken tokens at 0.1 s each: 1 s of audio = 2 + 25 placeholder tokens.
    expect(usage.output.audio).toEqual({ duration: '1' });
    expect(usage.output.text.tokens).toBe(10);
    // 13 x 0.4 + 10 x 1.6 + 27 x 6.4 = 194 micros
    expect(usage.cost_usd_micros).toBe(194);
  });

  it('bills streamed pcm16 audio from the bytes relayed', async () => {
    const stream = await gw.openai().chat.completions.create({
      model: 'aria', messages: hello, modalities: ['text', 'audio'], audio: { voice: 'alloy', format: 'pcm16' },
      stream: true, stream_options: { include_usage: true },
    });
    const pcm: Buffer[] = [];
    let usage: any = null;
    for await (const chunk of stream as any) {
      const data = chunk.choices[0]?.delta?.audio?.data;
      if (data) pcm.push(Buffer.from(data, 'base64'));
      usage = chunk.usage ?? usage;
    }
    expect(Buffer.concat(pcm).length).toBe(24000 * 2);
    expect(usage.output.audio).toEqual({ duration: '1' });
    expect(usage.cost_usd_micros).toBe(194);
  });
});
