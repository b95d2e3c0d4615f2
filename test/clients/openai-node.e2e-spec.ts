// The official Node `openai` SDK against a real gateway: every endpoint it can call, reading token
// usage through the SDK's own types and checking it against what the gateway recorded.
import OpenAI, { toFile } from 'openai';
import { startTestGateway, TestGateway } from '../support/test-gateway';
import { withOpenAiUsageFormat } from './support/openai-usage-format';
import { CONVERSATION, spokenWav } from '../transcription/support/spoken-audio';
import { printUsageTable, recordedText, UsageRow, withRecorded } from './support/recorded-usage';

const CLIENT = 'openai (Node) 6.30.1';
const LOOKUP_TOOL: OpenAI.ChatCompletionTool = {
  type: 'function',
  function: { name: 'lookup', description: 'Look a word up.', parameters: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] } },
};

// A gateway start and a transcription take seconds when the machine is busy; nothing here waits on a clock.
jest.setTimeout(60_000);

describe('official Node openai SDK: token usage', () => {
  let gw: TestGateway;
  let client: OpenAI;
  const rows: UsageRow[] = [];
  const chatText = (u: OpenAI.CompletionUsage | undefined | null) =>
    `prompt_tokens ${u?.prompt_tokens} (cached ${u?.prompt_tokens_details?.cached_tokens}, audio ${u?.prompt_tokens_details?.audio_tokens}), completion_tokens ${u?.completion_tokens} (reasoning ${u?.completion_tokens_details?.reasoning_tokens}, audio ${u?.completion_tokens_details?.audio_tokens}), total_tokens ${u?.total_tokens}`;

  beforeAll(async () => {
    gw = await startTestGateway({ configure: withOpenAiUsageFormat });
    client = gw.openai();
  });
  afterAll(async () => {
    printUsageTable(CLIENT, rows);
    await gw?.close();
  });

  it('chat: usage.prompt_tokens / completion_tokens / total_tokens equal the recorded usage', async () => {
    const { result, recorded } = await withRecorded(gw, () =>
      client.chat.completions.create({ model: 'aria', messages: [{ role: 'user', content: 'Say hello to the gateway.' }] }),
    );
    const usage = result.usage!;
    expect(usage).toMatchObject({
      prompt_tokens: recorded.input,
      completion_tokens: recorded.output,
      total_tokens: recorded.total,
      prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 },
      completion_tokens_details: { reasoning_tokens: 0, audio_tokens: 0 },
    });
    // The simulator's own count for this prompt (3 + 4 + 6 words and marks): the figure OpenAI would report.
    expect(usage.prompt_tokens).toBe(13);
    expect((usage as unknown as { cost_usd_micros: number }).cost_usd_micros).toBe(recorded.costUsdMicros);
    rows.push({ client: CLIENT, endpoint: 'chat', reported: chatText(usage), recorded: recordedText(recorded) });
  });

  it('streamed chat: the include_usage chunk carries the same fields', async () => {
    const { result: chunks, recorded } = await withRecorded(gw, async () => {
      const stream = await client.chat.completions.create({
        model: 'aria',
        messages: [{ role: 'user', content: 'Say hello to the gateway.' }],
        stream: true,
        stream_options: { include_usage: true },
      });
      const all: OpenAI.ChatCompletionChunk[] = [];
      for await (const chunk of stream) all.push(chunk);
      return all;
    });
    const usage = chunks.at(-1)!.usage!;
    expect(chunks.at(-1)!.choices).toEqual([]);
    expect(usage).toMatchObject({ prompt_tokens: recorded.input, completion_tokens: recorded.output, total_tokens: recorded.total });
    expect(usage.completion_tokens).toBe(10);
    rows.push({ client: CLIENT, endpoint: 'stream', reported: chatText(usage), recorded: recordedText(recorded) });
  });

  it('tool call: usage counts the call\'s arguments as completion tokens', async () => {
    const { result, recorded } = await withRecorded(gw, () =>
      client.chat.completions.create({ model: 'aria', messages: [{ role: 'user', content: 'Look up the word gateway.' }], tools: [LOOKUP_TOOL] }),
    );
    expect(result.choices[0].message.tool_calls?.[0]).toMatchObject({ type: 'function', function: { name: 'lookup' } });
    expect(result.usage).toMatchObject({ prompt_tokens: recorded.input, completion_tokens: recorded.output, total_tokens: recorded.total });
    expect(recorded.vector.output.tools.call_count).toBe(1);
    rows.push({ client: CLIENT, endpoint: 'tools', reported: chatText(result.usage), recorded: recordedText(recorded) });
  });

  it('audio in (captioning): the clip\'s placeholder tokens are in prompt_tokens and prompt_tokens_details.audio_tokens', async () => {
    const wav = spokenWav([{ hz: 440, seconds: 2 }]).toString('base64');
    const { result, recorded } = await withRecorded(gw, () =>
      client.chat.completions.create({ model: 'symphony-notes', messages: [{ role: 'user', content: [{ type: 'input_audio', input_audio: { data: wav, format: 'wav' } }] }] }),
    );
    // 2 s at 25 tokens/s plus 2 per clip; the simulator counts the same 52 inside its 59 prompt tokens.
    expect(result.usage).toMatchObject({ prompt_tokens: 59, total_tokens: recorded.total, prompt_tokens_details: { cached_tokens: 0, audio_tokens: 52 } });
    expect([recorded.input, recorded.audioIn]).toEqual([59, 52]);
    rows.push({ client: CLIENT, endpoint: 'chat (audio in)', reported: chatText(result.usage), recorded: recordedText(recorded) });
  });

  it('audio out: the spoken answer\'s tokens are in completion_tokens and completion_tokens_details.audio_tokens', async () => {
    const { result, recorded } = await withRecorded(gw, () =>
      client.chat.completions.create({ model: 'aria', messages: [{ role: 'user', content: 'Say hello to the gateway.' }], modalities: ['text', 'audio'], audio: { voice: 'alloy', format: 'wav' } }),
    );
    // 1 s of speech = 2 + 25 tokens, plus the 10 transcript tokens.
    expect(result.usage).toMatchObject({ completion_tokens: 37, total_tokens: 50, completion_tokens_details: { reasoning_tokens: 0, audio_tokens: 27 } });
    expect([recorded.output, recorded.audioOut]).toEqual([37, 27]);
    rows.push({ client: CLIENT, endpoint: 'chat (audio out)', reported: chatText(result.usage), recorded: recordedText(recorded) });
  });

  it('transcription json: token usage (input_tokens = the audio tokens billed)', async () => {
    const file = await toFile(spokenWav(CONVERSATION), 'talk.wav', { type: 'audio/wav' });
    const { result, recorded } = await withRecorded(gw, () => client.audio.transcriptions.create({ model: 'symphony', file }));
    expect(result.usage).toEqual(expect.objectContaining({
      type: 'tokens',
      input_tokens: recorded.input,
      output_tokens: 0,
      total_tokens: recorded.input,
      input_token_details: { audio_tokens: recorded.audioIn, text_tokens: 0 },
    }));
    expect(recorded.audioIn).toBeGreaterThan(0);
    const usage = result.usage as OpenAI.Audio.Transcription.Tokens;
    rows.push({ client: CLIENT, endpoint: 'transcription (json)', reported: `type tokens, input_tokens ${usage.input_tokens} (audio ${usage.input_token_details?.audio_tokens}), output_tokens ${usage.output_tokens}, total_tokens ${usage.total_tokens}`, recorded: recordedText(recorded) });
  });

  it('transcription verbose_json: duration usage (seconds = the duration billed)', async () => {
    const file = await toFile(spokenWav(CONVERSATION), 'talk.wav', { type: 'audio/wav' });
    const { result, recorded } = await withRecorded(gw, () => client.audio.transcriptions.create({ model: 'symphony', file, response_format: 'verbose_json' }));
    expect(result.usage).toEqual(expect.objectContaining({ type: 'duration', seconds: recorded.audioSeconds }));
    expect(result.duration).toBe(recorded.audioSeconds);
    rows.push({ client: CLIENT, endpoint: 'transcription (verbose_json)', reported: `type duration, seconds ${result.usage?.seconds}`, recorded: recordedText(recorded) });
  });

  it('speech: the body is the audio, with no usage to report (billed all the same)', async () => {
    const { result, recorded } = await withRecorded(gw, () => client.audio.speech.create({ model: 'chorus-voices', voice: 'vivian', input: 'Hello there.', response_format: 'wav' }));
    expect(Buffer.from(await result.arrayBuffer()).subarray(0, 4).toString()).toBe('RIFF');
    expect(recorded.vector.input.text.characters).toBe('Hello there.'.length);
    rows.push({ client: CLIENT, endpoint: 'speech', reported: 'none (binary audio body)', recorded: `${recorded.vector.input.text.characters} characters, ${recorded.vector.output.audio.duration} s audio (${recorded.audioOut} tokens), ${recorded.costUsdMicros} micros` });
  });

  it('images: the upstream\'s response is relayed verbatim, with no usage', async () => {
    const { result, recorded } = await withRecorded(gw, () => client.images.generate({ model: 'canvas', prompt: 'A lighthouse at dusk' }));
    expect(result.data).toHaveLength(1);
    expect(result.usage).toBeUndefined();
    rows.push({ client: CLIENT, endpoint: 'images', reported: 'none (upstream body relayed verbatim)', recorded: `${recorded.vector.output.image.count} image(s), ${recorded.costUsdMicros} micros` });
  });
});
