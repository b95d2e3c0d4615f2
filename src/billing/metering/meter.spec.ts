import type { CatalogModel } from '../../catalog/catalog.types';
import { fixtureModel } from '../../../test/support/catalog-model.fixture';
import type { Measurement } from './measurement';
import { meter } from './meter';
import type { DisputedField } from './plausibility';

const backendEverywhere: Partial<CatalogModel> = {
  media_profiles: {
    audio: { accepts: null, converts_to: null, metering: 'backend' },
    image: { accepts: null, converts_to: null, metering: 'backend' },
    video: { accepts: null, converts_to: null, metering: 'backend' },
  },
};
const tenSeconds = { durationSeconds: '10.00' }; // 2 + ceil(25 x 10) = 252 tokens

describe('meter: text', () => {
  it.each<[string, Measurement, object, object]>([
    [
      'splits cached and reasoning tokens out of the upstream totals',
      { upstream: { promptTokens: 100, cachedTokens: 30, completionTokens: 50, reasoningTokens: 20 }, input: {}, output: {} },
      { tokens: 70, characters: 0, cached_tokens: 30, reasoning_tokens: 0 },
      { tokens: 30, characters: 0, cached_tokens: 0, reasoning_tokens: 20 },
    ],
    [
      'treats missing details (vLLM prompt_tokens_details: null) as nothing cached',
      { upstream: { promptTokens: 100, completionTokens: 10 }, input: {}, output: {} },
      { tokens: 100, characters: 0, cached_tokens: 0, reasoning_tokens: 0 },
      { tokens: 10, characters: 0, cached_tokens: 0, reasoning_tokens: 0 },
    ],
    [
      'caps cached tokens at the prompt',
      { upstream: { promptTokens: 10, cachedTokens: 15, completionTokens: 1 }, input: {}, output: {} },
      { tokens: 0, characters: 0, cached_tokens: 10, reasoning_tokens: 0 },
      { tokens: 1, characters: 0, cached_tokens: 0, reasoning_tokens: 0 },
    ],
    [
      'falls back to the handler counts without an upstream report',
      { input: { textTokens: 12 }, output: { textTokens: 5, reasoningTokens: 2 } },
      { tokens: 12, characters: 0, cached_tokens: 0, reasoning_tokens: 0 },
      { tokens: 3, characters: 0, cached_tokens: 0, reasoning_tokens: 2 },
    ],
    [
      'counts TTS input by characters',
      { input: { textCharacters: 42 }, output: {} },
      { tokens: 0, characters: 42, cached_tokens: 0, reasoning_tokens: 0 },
      { tokens: 0, characters: 0, cached_tokens: 0, reasoning_tokens: 0 },
    ],
  ])('%s', (_name, measurement, inputText, outputText) => {
    const usage = meter(fixtureModel(), measurement);
    expect(usage.input.text).toEqual(inputText);
    expect(usage.output.text).toEqual(outputText);
    expect(usage.metering).toBe('boundary');
  });
});

describe('meter: input audio', () => {
  it.each<[string, Partial<CatalogModel>, Measurement, number, number, string]>([
    ['boundary: derived tokens win and come out of the prompt', {}, { upstream: { promptTokens: 300, audioPromptTokens: 260 }, input: { audio: [tenSeconds] }, output: {} }, 252, 48, 'boundary'],
    ['backend: the reported tokens win', backendEverywhere, { upstream: { promptTokens: 300, audioPromptTokens: 260 }, input: { audio: [tenSeconds] }, output: {} }, 260, 40, 'backend'],
    ['backend without a report: derived tokens', backendEverywhere, { upstream: { promptTokens: 300 }, input: { audio: [tenSeconds] }, output: {} }, 252, 48, 'boundary'],
    ['per clip: two clips, each with its placeholder and ceil', {}, { upstream: { promptTokens: 100 }, input: { audio: [{ durationSeconds: '0.5' }, { durationSeconds: '0.25' }] }, output: {} }, 2 + 13 + 2 + 7, 76, 'boundary'],
    ['derived tokens over the prompt leave 0 text tokens', {}, { upstream: { promptTokens: 200 }, input: { audio: [tenSeconds] }, output: {} }, 252, 0, 'boundary'],
    ['no placeholder: no derived tokens, the prompt stays text', { architecture: { ...fixtureModel().architecture, audio_placeholder: null } }, { upstream: { promptTokens: 300 }, input: { audio: [tenSeconds] }, output: {} }, 0, 300, 'boundary'],
    ['a reported audio count on a request without audio is ignored', backendEverywhere, { upstream: { promptTokens: 30, audioPromptTokens: 0 }, input: {}, output: {} }, 0, 30, 'boundary'],
  ])('%s', (_name, overrides, measurement, audioTokens, textTokens, source) => {
    const usage = meter(fixtureModel(overrides), measurement);
    expect(usage.audioTokens.input).toBe(audioTokens);
    expect(usage.input.text.tokens).toBe(textTokens);
    expect(usage.metering).toBe(source);
  });

  it('bounds a backend audio count by 4x the boundary count: 1008 of 252 stands, 1009 bills 252 and is disputed', () => {
    const model = fixtureModel(backendEverywhere);
    const disputes: DisputedField[] = [];
    const at = meter(model, { upstream: { promptTokens: 2000, audioPromptTokens: 1008 }, input: { audio: [tenSeconds] }, output: {} }, disputes);
    expect([at.audioTokens.input, at.metering, disputes]).toEqual([1008, 'backend', []]);
    const past = meter(model, { upstream: { promptTokens: 2000, audioPromptTokens: 1009 }, input: { audio: [tenSeconds] }, output: {} }, disputes);
    expect([past.audioTokens.input, past.input.text.tokens, past.metering]).toEqual([252, 1748, 'boundary']);
    expect(disputes).toEqual([{ field: 'prompt_tokens_details.audio_tokens', reported: '1009', billed: 252, bound: '<= 1008', reason: 'over_boundary_measurement', severity: 'hard' }]);
  });

  it('cannot bound a backend audio count without a placeholder: it stands', () => {
    const model = fixtureModel({ ...backendEverywhere, architecture: { ...fixtureModel().architecture, audio_placeholder: null } });
    const disputes: DisputedField[] = [];
    expect(meter(model, { upstream: { audioPromptTokens: 5000 }, input: { audio: [tenSeconds] }, output: {} }, disputes).audioTokens.input).toBe(5000);
    expect(disputes).toEqual([]);
  });

  it('sums clip durations exactly', () => {
    const clips = [{ durationSeconds: '0.1' }, { durationSeconds: '0.2' }, { durationSeconds: '1.70' }];
    expect(meter(fixtureModel(), { input: { audio: clips }, output: {} }).input.audio).toEqual({ duration: '2' });
  });
});

describe('meter: output audio', () => {
  const speech: Measurement = {
    upstream: { completionTokens: 300, audioCompletionTokens: 250 },
    input: {},
    output: { audio: [{ durationSeconds: '10' }] },
  };
  it.each<[string, Partial<CatalogModel>, number, number, string]>([
    ['mono by default: derived tokens out of the completion', {}, 252, 48, 'boundary'],
    ['output_defaults.channels 2 bills the duration twice', { output_defaults: { channels: 2 } }, 502, 0, 'boundary'],
    ['backend audio profile: the reported completion audio tokens win', backendEverywhere, 250, 50, 'backend'],
  ])('%s', (_name, overrides, audioTokens, textTokens, source) => {
    const usage = meter(fixtureModel(overrides), speech);
    expect(usage.audioTokens.output).toBe(audioTokens);
    expect(usage.output.text.tokens).toBe(textTokens);
    expect(usage.output.audio.duration).toBe('10');
    expect(usage.metering).toBe(source);
  });
});

describe('meter: images', () => {
  const images = { input: { images: [{ width: 1920, height: 1080 }, { width: 224, height: 224 }] }, output: {} };
  it.each<[string, Partial<CatalogModel>, Measurement, object, number]>([
    ['boundary: smart-resize patches (2691 + 64)', {}, { upstream: { promptTokens: 3000, imagePromptTokens: 2900 }, ...images }, { count: 2, megapixels: '2.123776', tiles: 2755, tokens: 2755 }, 245],
    ['backend: reported tokens, tiles stay geometric', backendEverywhere, { upstream: { promptTokens: 3000, imagePromptTokens: 2900 }, ...images }, { count: 2, megapixels: '2.123776', tiles: 2755, tokens: 2900 }, 100],
    ['no placeholder: count and megapixels only', { architecture: { ...fixtureModel().architecture, visual_placeholder: null } }, { upstream: { promptTokens: 3000 }, ...images }, { count: 2, megapixels: '2.123776', tiles: 0, tokens: 0 }, 3000],
  ])('%s', (_name, overrides, measurement, imageUsage, textTokens) => {
    const usage = meter(fixtureModel(overrides), measurement);
    expect(usage.input.image).toEqual(imageUsage);
    expect(usage.input.text.tokens).toBe(textTokens);
  });

  it('counts generated images on the output side', () => {
    expect(meter(fixtureModel(), { input: {}, output: { imageCount: 3 } }).output.image.count).toBe(3);
  });
});

describe('meter: video', () => {
  // 640 x 480 resizes to 644 x 476: 23 x 17 = 391 tokens per sampled frame.
  const clip = { durationSeconds: '2.50', width: 640, height: 480, frames: 4 };
  it.each<[string, Partial<CatalogModel>, Measurement, object, string]>([
    ['boundary: frames x per-frame tokens', {}, { upstream: { promptTokens: 2000, videoPromptTokens: 1500 }, input: { videos: [clip, clip] }, output: {} }, { duration: '5', frames: 8, tokens: 3128 }, 'boundary'],
    ['backend: reported tokens', backendEverywhere, { upstream: { promptTokens: 2000, videoPromptTokens: 1500 }, input: { videos: [clip] }, output: {} }, { duration: '2.5', frames: 4, tokens: 1500 }, 'backend'],
  ])('%s', (_name, overrides, measurement, videoUsage, source) => {
    const usage = meter(fixtureModel(overrides), measurement);
    expect(usage.input.video).toEqual(videoUsage);
    expect(usage.metering).toBe(source);
  });
});

describe('meter: tools and voice', () => {
  it('records tool and web-search calls', () => {
    const usage = meter(fixtureModel(), { input: {}, output: { toolCalls: 3, webSearchCalls: 1 } });
    expect(usage.output.tools).toEqual({ call_count: 3, tokens: 0, web_search_calls: 1 });
  });

  it.each<[string, Measurement['input']['voice'], object]>([
    ['no voice work', undefined, { clone_count: 0, design_count: 0, reference_duration: '0' }],
    ['a clone from 12.50 s of reference audio', { clone: true, design: false, referenceSeconds: '12.50' }, { clone_count: 1, design_count: 0, reference_duration: '12.5' }],
    ['a designed voice', { clone: false, design: true }, { clone_count: 0, design_count: 1, reference_duration: '0' }],
  ])('%s', (_name, voice, expected) => {
    expect(meter(fixtureModel(), { input: { voice }, output: {} }).input.voice).toEqual(expected);
  });
});
