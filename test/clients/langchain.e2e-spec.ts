// LangChain's ChatOpenAI (`@langchain/openai`, configuration.baseURL at the gateway): invoke, stream
// with streamUsage, and bindTools, each reading `usage_metadata`, which must equal what the gateway
// recorded for the request.
import type { AIMessageChunk } from '@langchain/core/messages';
import { ChatOpenAI } from '@langchain/openai';
import { startTestGateway, TestGateway } from '../support/test-gateway';
import { withOpenAiUsageFormat } from './support/openai-usage-format';
import { printUsageTable, recordedText, type RecordedTokens, UsageRow, withRecorded } from './support/recorded-usage';

const CLIENT = 'LangChain ChatOpenAI (@langchain/openai 1.6.0)';
type UsageMetadata = NonNullable<AIMessageChunk['usage_metadata']>;

const usageText = (u: UsageMetadata | undefined) =>
  `input_tokens ${u?.input_tokens} (cache_read ${u?.input_token_details?.cache_read}, audio ${u?.input_token_details?.audio}), output_tokens ${u?.output_tokens} (reasoning ${u?.output_token_details?.reasoning}), total_tokens ${u?.total_tokens}`;

function expectSameTokens(usage: UsageMetadata | undefined, recorded: RecordedTokens): void {
  expect(usage).toMatchObject({ input_tokens: recorded.input, output_tokens: recorded.output, total_tokens: recorded.total });
  expect(usage?.input_token_details).toMatchObject({ cache_read: recorded.cached, audio: recorded.audioIn });
  expect(usage?.output_token_details).toMatchObject({ reasoning: recorded.reasoning, audio: recorded.audioOut });
}

// A gateway start and a transcription take seconds when the machine is busy; nothing here waits on a clock.
jest.setTimeout(60_000);

describe('LangChain ChatOpenAI: token usage', () => {
  let gw: TestGateway;
  const rows: UsageRow[] = [];
  const chat = (options: { streamUsage?: boolean } = {}) =>
    new ChatOpenAI({ model: 'aria', apiKey: gw.apiKey, configuration: { baseURL: `${gw.baseUrl}/v1` }, maxRetries: 0, ...options });

  beforeAll(async () => {
    gw = await startTestGateway({ configure: withOpenAiUsageFormat });
  });
  afterAll(async () => {
    printUsageTable(CLIENT, rows);
    await gw?.close();
  });

  it('invoke: usage_metadata equals the recorded usage', async () => {
    const { result, recorded } = await withRecorded(gw, () => chat().invoke('Say hello to the gateway.'));
    expect(result.content).toBe('Simulated answer about: Say hello to the gateway.');
    expectSameTokens(result.usage_metadata, recorded);
    expect(result.usage_metadata?.input_tokens).toBe(13);
    rows.push({ client: CLIENT, endpoint: 'chat', reported: usageText(result.usage_metadata), recorded: recordedText(recorded) });
  });

  it('stream with streamUsage: the chunks add up to the recorded usage', async () => {
    const { result: message, recorded } = await withRecorded(gw, async () => {
      let full: AIMessageChunk | undefined;
      for await (const chunk of await chat({ streamUsage: true }).stream('Say hello to the gateway.')) full = full ? full.concat(chunk) : chunk;
      return full!;
    });
    expect(message.content).toBe('Simulated answer about: Say hello to the gateway.');
    expectSameTokens(message.usage_metadata, recorded);
    rows.push({ client: CLIENT, endpoint: 'stream', reported: usageText(message.usage_metadata), recorded: recordedText(recorded) });
  });

  it('bindTools: the tool call message carries the recorded usage', async () => {
    const lookup = {
      type: 'function' as const,
      function: { name: 'lookup', description: 'Look a word up.', parameters: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] } },
    };
    const { result, recorded } = await withRecorded(gw, () => chat().bindTools([lookup]).invoke('Look up the word gateway.'));
    expect(result.tool_calls).toEqual([expect.objectContaining({ name: 'lookup', args: { query: 'Look up the word gateway.' } })]);
    expect(recorded.vector.output.tools.call_count).toBe(1);
    expectSameTokens(result.usage_metadata, recorded);
    rows.push({ client: CLIENT, endpoint: 'tools', reported: usageText(result.usage_metadata), recorded: recordedText(recorded) });
  });
});
