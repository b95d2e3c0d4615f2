// The Vercel AI SDK (`ai` + `@ai-sdk/openai-compatible`) against a real gateway: generateText,
// streamText and a tool call, each reading the SDK's normalised token usage, which must equal what
// the gateway recorded for the request.
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { generateText, jsonSchema, streamText, tool, type LanguageModelUsage } from 'ai';
import { startTestGateway, TestGateway } from '../support/test-gateway';
import { withOpenAiUsageFormat } from './support/openai-usage-format';
import { printUsageTable, recordedText, type RecordedTokens, UsageRow, withRecorded } from './support/recorded-usage';

const CLIENT = 'Vercel AI SDK 7.0.173 (@ai-sdk/openai-compatible 3.0.92)';

const usageText = (u: LanguageModelUsage) =>
  `inputTokens ${u.inputTokens} (cacheRead ${u.inputTokenDetails.cacheReadTokens}), outputTokens ${u.outputTokens} (reasoning ${u.outputTokenDetails.reasoningTokens}), totalTokens ${u.totalTokens}`;

function expectSameTokens(usage: LanguageModelUsage, recorded: RecordedTokens): void {
  expect({ input: usage.inputTokens, output: usage.outputTokens, total: usage.totalTokens, cached: usage.inputTokenDetails.cacheReadTokens, reasoning: usage.outputTokenDetails.reasoningTokens })
    .toEqual({ input: recorded.input, output: recorded.output, total: recorded.total, cached: recorded.cached, reasoning: recorded.reasoning });
}

// A gateway start and a transcription take seconds when the machine is busy; nothing here waits on a clock.
jest.setTimeout(60_000);

describe('Vercel AI SDK: token usage', () => {
  let gw: TestGateway;
  let gateway: ReturnType<typeof createOpenAICompatible>;
  const rows: UsageRow[] = [];

  beforeAll(async () => {
    gw = await startTestGateway({ configure: withOpenAiUsageFormat });
    // includeUsage: the provider asks for stream_options.include_usage, so streams report usage too.
    gateway = createOpenAICompatible({ name: 'gateway', baseURL: `${gw.baseUrl}/v1`, apiKey: gw.apiKey, includeUsage: true });
  });
  afterAll(async () => {
    printUsageTable(CLIENT, rows);
    await gw?.close();
  });

  it('generateText reports the recorded input, output and total tokens', async () => {
    const { result, recorded } = await withRecorded(gw, () => generateText({ model: gateway('aria'), prompt: 'Say hello to the gateway.', maxRetries: 0 }));
    expect(result.text).toBe('Simulated answer about: Say hello to the gateway.');
    expectSameTokens(result.usage, recorded);
    expect(result.usage.inputTokens).toBe(13);
    rows.push({ client: CLIENT, endpoint: 'chat', reported: usageText(result.usage), recorded: recordedText(recorded) });
  });

  it('streamText reports the same usage from the final usage chunk', async () => {
    const { result: usage, recorded } = await withRecorded(gw, async () => {
      const streamed = streamText({ model: gateway('aria'), prompt: 'Say hello to the gateway.', maxRetries: 0 });
      let text = '';
      for await (const piece of streamed.textStream) text += piece;
      expect(text).toBe('Simulated answer about: Say hello to the gateway.');
      return streamed.usage;
    });
    expectSameTokens(usage, recorded);
    expect(usage.outputTokens).toBe(10);
    rows.push({ client: CLIENT, endpoint: 'stream', reported: usageText(usage), recorded: recordedText(recorded) });
  });

  it('a tool call reports the usage of the step that called the tool', async () => {
    const lookup = tool({
      description: 'Look a word up.',
      inputSchema: jsonSchema<{ query: string }>({ type: 'object', properties: { query: { type: 'string' } }, required: ['query'] }),
    });
    const { result, recorded } = await withRecorded(gw, () => generateText({ model: gateway('aria'), prompt: 'Look up the word gateway.', tools: { lookup }, maxRetries: 0 }));
    expect(result.toolCalls).toEqual([expect.objectContaining({ toolName: 'lookup', input: { query: 'Look up the word gateway.' } })]);
    expect(recorded.vector.output.tools.call_count).toBe(1);
    expectSameTokens(result.usage, recorded);
    rows.push({ client: CLIENT, endpoint: 'tools', reported: usageText(result.usage), recorded: recordedText(recorded) });
  });
});
