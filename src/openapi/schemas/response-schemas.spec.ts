// Response schemas against what the feature code really builds (model entries, voice lists,
// transcription replies, decision answers), so the document and the code cannot silently drift.
import { fixtureModel } from '../../../test/support/catalog-model.fixture';
import { meter } from '../../billing/metering/meter';
import { chatClientUsage, chatUsageOf } from '../../chat/chat-usage';
import { transcriptionClientUsage, transcriptionUsageOf } from '../../transcription/transcription-usage';
import { emptyInputUsage, emptyOutputUsage, type Usage } from '../../billing/usage';
import { CatalogService } from '../../catalog/catalog.service';
import { buildCostPage, planCostPage } from '../../costs/domain/cost-page';
import { parseCostQuery } from '../../costs/domain/cost-query';
import { choiceAnswer, scoreAnswer } from '../../decisions/domain/answer-arithmetic';
import type { DecisionResponse } from '../../decisions/domain/decision.types';
import { decisionUsage } from '../../decisions/domain/decision-usage';
import { audioDeltaEvent, audioDoneEvent } from '../../speech/domain/speech-events';
import { voiceList } from '../../speech/domain/voice-list';
import { clientChunk, SSE_DONE, sseFrame, trailingChunk } from '../../chat/stream/client-chunks';
import { ApiError } from '../../common/api-error';
import { planTranscription } from '../../transcription/transcription-plan';
import { transcriptionReply } from '../../transcription/transcription-reply';
import { componentValidator } from './component-validator';
import { RESPONSE_SCHEMAS } from '.';

const check = componentValidator(RESPONSE_SCHEMAS);
const messages = (name: string, value: unknown) => check(name, value).map((e) => `${e.instancePath} ${e.message}`);
const vector: Usage = { input: { ...emptyInputUsage(), audio: { duration: '2.5' } }, output: emptyOutputUsage(), cost_usd_micros: 75 };
const audioTokens = { input: 63, output: 0 };

describe('ListModelEntry schema', () => {
  const richModel = fixtureModel({
    supported_parameters: ['temperature', 'max_tokens', 'tools'],
    output_defaults: { sampling_rate: 24000, audio_format: 'pcm16', channels: 1 },
    media_profiles: {
      audio: { accepts: { containers: ['wav', 'mp3'], sample_rate: [8000, 48000], channels: [1, 2] }, converts_to: { codec: 'pcm_s16le', container: 'wav', sample_rate: 16000, channels: 1 }, metering: 'boundary' },
      image: { accepts: { formats: ['png'], max_width: 4096, max_height: null }, converts_to: null },
      video: null,
    },
    expiration_date: '2030-01-31',
    per_request_limits: { prompt_tokens: 1000, completion_tokens: 100 },
  });

  it('accepts the public entry of a catalog model, with its live status', () => {
    const listing = { object: 'list', data: [{ ...CatalogService.publicEntry(richModel), status: 'warm' }] };
    expect(messages('ListModelsResponse', listing)).toEqual([]);
  });

  it('takes prices as string, integer, number or null, and nothing else', () => {
    const entry = CatalogService.publicEntry(fixtureModel());
    const prices = { tokens: '0.000001', characters: 2, cached_tokens: 0.5, count: null };
    expect(messages('ListModelEntry', { ...entry, pricing: { input: { text: prices }, output: {} } })).toEqual([]);
    expect(messages('ListModelEntry', { ...entry, pricing: { input: { text: { tokens: true } }, output: {} } })).toContain(
      '/pricing/input/text/tokens must match exactly one schema in oneOf',
    );
  });

  it('rejects a modality outside the spec\'s enumeration', () => {
    const entry = CatalogService.publicEntry(fixtureModel());
    const architecture = { ...entry.architecture, input_modalities: ['smell'] };
    expect(messages('ListModelEntry', { ...entry, architecture })).toContain('/architecture/input_modalities/0 must be equal to one of the allowed values');
  });
});

describe('ChatUsage schema', () => {
  const metered = meter(fixtureModel(), { upstream: { promptTokens: 400, cachedTokens: 100, completionTokens: 30, reasoningTokens: 5 }, input: { audio: [{ durationSeconds: '2.5' }] }, output: {} });
  const usage = chatUsageOf({ input: metered.input, output: metered.output, cost_usd_micros: 12 }, metered.audioTokens);

  it('accepts the vector with OpenAI\'s token fields derived from it', () => {
    expect(usage.prompt_tokens_details.audio_tokens).toBe(65);
    expect(messages('ChatUsage', usage)).toEqual([]);
  });

  it('rejects a missing token field and a property the code does not send', () => {
    const { total_tokens: _dropped, ...partial } = usage;
    expect(messages('ChatUsage', partial)).toEqual([" must have required property 'total_tokens'"]);
    expect(messages('ChatUsage', { ...usage, prompt_tokens_details: { ...usage.prompt_tokens_details, image_tokens: 1 } })).toEqual(['/prompt_tokens_details must NOT have additional properties']);
  });
});

describe('VoiceListResponse schema', () => {
  it('accepts the voice list of an alias over two models', () => {
    const members = [fixtureModel({ id: 'a', voices: { presets: ['Alloy', 'ash'] } }), fixtureModel({ id: 'b', voices: { presets: ['ash'] } })];
    expect(messages('VoiceListResponse', voiceList('chorus', members))).toEqual([]);
  });
});

describe('TranscriptionResponse schema', () => {
  const transcript = {
    text: 'alpha bravo',
    segments: [{ id: 0, start: 0, end: 1.5, text: ' alpha bravo' }],
    words: [{ word: 'alpha', start: 0, end: 0.5, speaker: 0 }, { word: 'bravo', start: 0.6, end: 1.5, speaker: null }],
  };

  it.each([
    ['json', { format: 'json' as const, speakerLabels: false }, 'tokens' as const],
    ['verbose_json with speakers and a language hint', { format: 'verbose_json' as const, speakerLabels: true, language: 'en' }, 'duration' as const],
  ])('accepts the %s reply with the default (spec) usage', (_label, options, kind) => {
    const usage = transcriptionClientUsage(vector, audioTokens, kind, 'spec');
    expect(messages('TranscriptionResponse', transcriptionReply(planTranscription(options), transcript, 2.5, usage).body)).toEqual([]);
  });

  it.each(['tokens' as const, 'duration' as const])('documents the opt-in %s usage as TranscriptionUsage, which the response schema (Usage) refuses', (kind) => {
    const usage = transcriptionClientUsage(vector, audioTokens, kind, 'openai');
    expect(messages('TranscriptionUsage', usage)).toEqual([]);
    expect(messages('TranscriptionResponse', { text: 'x', usage })).toContain('/usage must match exactly one schema in oneOf');
  });

  it('rejects a token shape without its counts as TranscriptionUsage', () => {
    const { input_tokens: _dropped, ...tokens } = transcriptionUsageOf(vector, audioTokens, 'tokens') as unknown as Record<string, unknown>;
    expect(messages('TranscriptionUsage', tokens)).toContain(' must match exactly one schema in oneOf');
  });

  it('rejects a speaker index that is not an integer', () => {
    const body = { text: 'x', words: [{ word: 'x', start: 0, end: 1, speaker: 'A' }] };
    expect(messages('TranscriptionResponse', body)).toContain('/words/0/speaker must be integer,null');
  });
});

describe('DecisionResponse schema', () => {
  const choice = { type: 'choice' as const, instructions: 'Which?', choices: [{ value: 'yes' }, { value: false }] };
  const score = { type: 'score' as const, instructions: 'How much?', levels: [{ label: 'low' }, { label: 'mid' }, { label: 'high' }] };

  it('accepts answers of every type and the usage derived from a metered vector', () => {
    const metered = meter(fixtureModel(), { upstream: { promptTokens: 40, completionTokens: 3 }, input: { images: [{ width: 64, height: 64 }] }, output: {} });
    const response: DecisionResponse = {
      model: 'verdict',
      answers: [
        { type: 'predicate', name: 'p', probability: 0.25 },
        choiceAnswer(choice, null, [0.3, 0.7]),
        scoreAnswer(score, 'level', [0.2, 0.3, 0.5]),
        { type: 'refusal', name: null },
      ],
      usage: decisionUsage(metered, true),
    };
    expect(messages('DecisionResponse', response)).toEqual([]);
  });

  it('rejects a refusal that carries probabilities', () => {
    const response = { model: 'verdict', answers: [{ type: 'refusal', name: null, probability: 1 }], usage: { input_tokens: 1, input_tokens_details: { multimodal_tokens: null }, output_tokens: 1, total_tokens: 2 } };
    expect(messages('DecisionResponse', response)).toContain('/answers/0 must match exactly one schema in oneOf');
  });
});

describe('CostPage schema', () => {
  it('accepts a grouped page with more to come, and its last page', () => {
    const context = { organizationId: 'org-a', nowSeconds: 1_741_000_000, secret: 'test' };
    const plan = planCostPage(parseCostQuery({ start_time: '1740787200', limit: '2', group_by: 'line_item' }), context);
    const page = buildCostPage(plan, [{ day: plan.fromDay, group: 'aria, input text tokens', amountUsdMicros: 1_500_250n }], 'test');
    expect(page.has_more).toBe(true);
    expect(messages('CostPage', page)).toEqual([]);
    const last = buildCostPage({ ...plan, hasMore: false }, [], 'test');
    expect(messages('CostPage', last)).toEqual([]);
  });

  it('rejects a next_page that is neither a cursor string nor null', () => {
    const page = { object: 'page', data: [], has_more: false, next_page: 7 };
    expect(messages('CostPage', page)).toContain('/next_page must be string,null');
  });
});

const streamVector: Usage = { input: { ...emptyInputUsage(), audio: { duration: '2.5' } }, output: emptyOutputUsage(), cost_usd_micros: 75 };
const usage = chatClientUsage(streamVector, { input: 0, output: 0 }, undefined);

/** The SSE event a reader (and schemathesis) parses out of one frame: its data line, event `message`. */
const parsedEvent = (frame: string) => ({ event: 'message', data: frame.replace(/^data: /, '').replace(/\n\n$/, '') });
const payloadErrors = (name: string, frame: string) => messages(name, JSON.parse(parsedEvent(frame).data));

describe('chat stream event schemas', () => {
  const upstream = { id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'upstream-aria', choices: [{ index: 0, delta: { role: 'assistant', content: 'Hi' }, finish_reason: null }] };
  const identity = { id: 'c1', created: 1, model: 'aria' };

  it('accepts the relayed chunks, with and without include_usage, and the trailing usage chunk', () => {
    expect(payloadErrors('ChatCompletionChunk', sseFrame(clientChunk(upstream, 'aria', true)))).toEqual([]);
    expect(payloadErrors('ChatCompletionChunk', sseFrame(clientChunk(upstream, 'aria', false)))).toEqual([]);
    expect(payloadErrors('ChatCompletionChunk', sseFrame(trailingChunk(identity, { usage })))).toEqual([]);
  });

  it('describes every frame as an event: a chunk, the mid-stream error envelope, and [DONE]', () => {
    const frames = [sseFrame(trailingChunk(identity, { usage })), sseFrame(ApiError.upstream('upstream_stream_failed', 'failed').toBody()), SSE_DONE];
    expect(frames.map((frame) => messages('ChatCompletionStreamEvent', parsedEvent(frame)))).toEqual([[], [], []]);
  });

  it('rejects a chunk of another object type', () => {
    expect(messages('ChatCompletionChunk', { ...upstream, object: 'chat.completion' })).toContain('/object must be equal to constant');
  });
});

describe('speech stream event schemas', () => {
  it('accepts the delta and done events the speech stream writes', () => {
    expect(payloadErrors('SpeechAudioDelta', audioDeltaEvent(Buffer.from('RIFF')))).toEqual([]);
    expect(payloadErrors('SpeechAudioDone', audioDoneEvent(streamVector))).toEqual([]);
    expect(messages('SpeechStreamEvent', parsedEvent(audioDoneEvent(streamVector)))).toEqual([]);
  });

  it('rejects a done event without its usage', () => {
    expect(messages('SpeechAudioDone', { type: 'speech.audio.done' })).toContain(" must have required property 'usage'");
  });
});
