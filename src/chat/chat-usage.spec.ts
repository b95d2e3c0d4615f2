import fc from 'fast-check';
import { chatClientUsage, chatUsageOf } from './chat-usage';
import { specUsageOf } from '../billing/client-usage';
import { transcriptionClientUsage, transcriptionUsageOf } from '../transcription/transcription-usage';
import { meter } from '../billing/metering/meter';
import { billed, reported } from '../../test/support/billed-usage.fixture';
import { fixtureModel } from '../../test/support/catalog-model.fixture';

const model = fixtureModel();

describe('chat usage in OpenAI fields', () => {
  it('adds the fields next to the vector, which is passed through untouched', () => {
    const { usage, audioTokens } = billed(reported({ promptTokens: 100, cachedTokens: 30, completionTokens: 50, reasoningTokens: 20 }));
    const chat = chatUsageOf(usage, audioTokens);
    expect(chat).toEqual({
      input: usage.input,
      output: usage.output,
      cost_usd_micros: 7,
      prompt_tokens: 100,
      completion_tokens: 50,
      total_tokens: 150,
      prompt_tokens_details: { cached_tokens: 30, audio_tokens: 0 },
      completion_tokens_details: { reasoning_tokens: 20, audio_tokens: 0 },
    });
    expect(chat.input).toBe(usage.input);
    expect(usage.input.text).toEqual({ tokens: 70, characters: 0, cached_tokens: 30, reasoning_tokens: 0 });
  });

  it('counts input audio tokens in prompt_tokens and its details (10 s clip = 2 + 250 tokens)', () => {
    const { usage, audioTokens } = billed(reported({ promptTokens: 300, completionTokens: 12 }, { audio: [{ durationSeconds: '10.00' }] }));
    expect(usage.input.text.tokens).toBe(48);
    expect(chatUsageOf(usage, audioTokens)).toMatchObject({ prompt_tokens: 300, total_tokens: 312, prompt_tokens_details: { cached_tokens: 0, audio_tokens: 252 } });
  });

  it('counts image and video tokens in prompt_tokens, as OpenAI does', () => {
    const media = { images: [{ width: 224, height: 224 }], videos: [{ durationSeconds: '1', width: 224, height: 224, frames: 2 }] };
    const { usage, audioTokens } = billed(reported({ promptTokens: 500, completionTokens: 5 }, media));
    expect(usage.input.image.tokens).toBe(64);
    expect(usage.input.video.tokens).toBe(128);
    expect(chatUsageOf(usage, audioTokens)).toMatchObject({ prompt_tokens: 500, prompt_tokens_details: { audio_tokens: 0 } });
  });

  it('counts output audio tokens in completion_tokens and its details (1.5 s = 2 + 38)', () => {
    const { usage, audioTokens } = billed(reported({ promptTokens: 20, completionTokens: 100, audioCompletionTokens: 40 }, {}, { audio: [{ durationSeconds: '1.5' }] }));
    expect(usage.output.text.tokens).toBe(60);
    expect(chatUsageOf(usage, audioTokens)).toMatchObject({ completion_tokens: 100, total_tokens: 120, completion_tokens_details: { reasoning_tokens: 0, audio_tokens: 40 } });
  });

  it('reports what was billed when the upstream sent no usage: the gateway\'s own counts plus media', () => {
    const { usage, audioTokens } = billed({ input: { textTokens: 9, audio: [{ durationSeconds: '0.04' }] }, output: { textTokens: 4 } });
    expect(chatUsageOf(usage, audioTokens)).toMatchObject({ prompt_tokens: 12, completion_tokens: 4, total_tokens: 16, prompt_tokens_details: { cached_tokens: 0, audio_tokens: 3 } });
  });

  it('never reports more cached tokens than prompt tokens (cached capped at the prompt)', () => {
    const { usage, audioTokens } = billed(reported({ promptTokens: 10, cachedTokens: 15, completionTokens: 1 }));
    expect(chatUsageOf(usage, audioTokens)).toMatchObject({ prompt_tokens: 10, prompt_tokens_details: { cached_tokens: 10 } });
  });

  it('reports zeros for the empty vector, with an uncharged cost', () => {
    const { usage, audioTokens } = billed(reported({ promptTokens: 0, completionTokens: 0 }), null);
    expect(chatUsageOf(usage, audioTokens)).toMatchObject({ prompt_tokens: 0, completion_tokens: 0, total_tokens: 0, cost_usd_micros: null });
  });

  it('equals the upstream report whenever the report is consistent (every token lands in one field)', () => {
    const counts = fc.nat({ max: 1_000_000 });
    fc.assert(
      fc.property(counts, counts, counts, counts, fc.nat({ max: 600 }), (extraPrompt, cachedShare, completionExtra, reasoning, clipCentis) => {
        const clip = { durationSeconds: (clipCentis / 100).toFixed(2) };
        const audioIn = meter(model, reported({}, { audio: [clip] })).audioTokens.input;
        const promptTokens = audioIn + extraPrompt;
        const cachedTokens = Math.min(cachedShare, extraPrompt);
        const completionTokens = reasoning + completionExtra;
        const { usage, audioTokens } = billed(reported({ promptTokens, cachedTokens, completionTokens, reasoningTokens: reasoning }, { audio: [clip] }));
        const chat = chatUsageOf(usage, audioTokens);
        expect([chat.prompt_tokens, chat.completion_tokens, chat.total_tokens]).toEqual([promptTokens, completionTokens, promptTokens + completionTokens]);
        expect(chat.prompt_tokens_details).toEqual({ cached_tokens: cachedTokens, audio_tokens: audioIn });
        expect(chat.completion_tokens_details.reasoning_tokens).toBe(reasoning);
      }),
    );
  });
});

describe('the usage a client gets, by its organization\'s usage_format', () => {
  const { usage, audioTokens } = billed(reported({ promptTokens: 100, completionTokens: 50 }, {}, { toolCalls: 2, webSearchCalls: 1 }));

  it('is the spec\'s Usage by default (format unset or spec): its keys only, tools without web_search_calls', () => {
    for (const format of [undefined, 'spec' as const]) {
      const chat = chatClientUsage(usage, audioTokens, format);
      expect(Object.keys(chat)).toEqual(['input', 'output', 'cost_usd_micros']);
      expect(chat.output.tools).toEqual({ call_count: 2, tokens: 0 });
      expect(chat.input).toBe(usage.input);
      expect(transcriptionClientUsage(usage, audioTokens, 'tokens', format)).toEqual(specUsageOf(usage));
    }
    expect(usage.output.tools.web_search_calls).toBe(1);
  });

  it('is the vector with OpenAI\'s fields, exactly as before the option, with usage_format: openai', () => {
    expect(chatClientUsage(usage, audioTokens, 'openai')).toEqual(chatUsageOf(usage, audioTokens));
    expect(transcriptionClientUsage(usage, audioTokens, 'duration', 'openai')).toEqual(transcriptionUsageOf(usage, audioTokens, 'duration'));
    expect((chatClientUsage(usage, audioTokens, 'openai').output.tools as { web_search_calls?: number }).web_search_calls).toBe(1);
  });
});
