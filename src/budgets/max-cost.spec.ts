import { fixtureModel, FIXTURE_PRICING } from '../../test/support/catalog-model.fixture';
import { maxChatCostMicros, maxImageCostMicros, maxSpeechCostMicros, maxTranscriptionCostMicros, type ChatCostBounds } from './max-cost';
import { boundImageCount, boundSpeechSeconds, maxSpeechSeconds } from '../billing/metering/output-bounds';
import { speechMeasurement } from '../speech/domain/speech-measurement';
import { cloneModel, presetModel } from '../../test/support/speech-models.fixture';
import { boundReport } from '../billing/metering/plausibility';
import { meter } from '../billing/metering/meter';
import { price } from '../billing/pricing/price';
import { copyWith } from '../common/copy-with';

const noMedia = { audio: [], images: [], videos: [] };
// input text 1 micro/token, output text 2 micros/token (fixture prices)
const bounds = (limits: ChatCostBounds['limits'], overrides: Partial<ChatCostBounds> = {}): ChatCostBounds => ({
  model: fixtureModel(),
  limits,
  media: noMedia,
  webSearchRequested: false,
  ...overrides,
});

describe('maximum cost of a chat request', () => {
  it('with a cap: prompt at 4 x estimate + 256, completion at cap x n', () => {
    expect(maxChatCostMicros(bounds({ promptEstimate: 100, completionCap: 50, choices: 2, contextLength: 32_768 }))).toBe(656n + 100n * 2n);
  });

  it('the prompt bound stops at the context length', () => {
    expect(maxChatCostMicros(bounds({ promptEstimate: 100, completionCap: 10, choices: 1, contextLength: 300 }))).toBe(300n + 20n);
  });

  it('without a cap: the dearer end of the prompt range, the completion filling the rest of the context x n', () => {
    // prompt 656: 656 + (1000 - 656) x 2 x 2 = 2032; prompt 25: 25 + 975 x 2 x 2 = 3925
    expect(maxChatCostMicros(bounds({ promptEstimate: 100, completionCap: null, choices: 2, contextLength: 1000 }))).toBe(3925n);
  });

  it('unbounded when neither a cap nor a context length bounds the completion', () => {
    expect(maxChatCostMicros(bounds({ promptEstimate: 100, completionCap: null, contextLength: null }))).toBeNull();
  });

  it('prices every completion token at the dearest output rate (reasoning here) and adds web search and the request fee', () => {
    const model = fixtureModel({ pricing: copyWith(FIXTURE_PRICING, { internal_reasoning: '0.000005', web_search: '0.01', request: '0.0001' }) });
    // 656 prompt + 100 x 5 reasoning + 2 searches x 10000 + 100 fee
    expect(maxChatCostMicros(bounds({ promptEstimate: 100, completionCap: 50, choices: 2, contextLength: 32_768 }, { model, webSearchRequested: true }))).toBe(656n + 500n + 20_000n + 100n);
  });

  it('counts input media as measured at the boundary', () => {
    const withImage = maxChatCostMicros(bounds({ promptEstimate: 100, completionCap: 10, contextLength: 32_768 }, { media: { audio: [], images: [{ width: 280, height: 280 }], videos: [] } }))!;
    const without = maxChatCostMicros(bounds({ promptEstimate: 100, completionCap: 10, contextLength: 32_768 }))!;
    expect(withImage).toBeGreaterThan(without);
  });

  it('is what billing charges for a report at the bounds; past the cap it is clamped, past the estimate band (soft) it exceeds the hold', () => {
    const model = fixtureModel();
    const limits = { promptEstimate: 100, completionCap: 50, choices: 1, contextLength: 32_768 };
    const max = maxChatCostMicros(bounds(limits))!;
    const billed = (promptTokens: number, completionTokens: number) => {
      const { report } = boundReport({ promptTokens, completionTokens }, copyWith(limits, { completionCounted: 50 }));
      return BigInt(price(model, meter(model, { upstream: report, input: {}, output: {} })).costUsdMicros);
    };
    expect(billed(656, 50)).toBe(max);
    expect(billed(656, 51)).toBeLessThanOrEqual(max);
    // The documented exception: a soft over-report of the prompt is billed as sent, one token over the hold.
    expect(billed(657, 50)).toBe(max + 1n);
  });

  it('decisions: no estimate and no cap, the context bounds the prompt and the completion together', () => {
    // prompt 1000: 1000 x 1; prompt 0: completion 1000 x 2 = 2000
    expect(maxChatCostMicros(bounds({ contextLength: 1000 }))).toBe(2000n);
    expect(maxChatCostMicros(bounds({ contextLength: null }))).toBeNull();
  });
});

describe('maximum cost of a transcription', () => {
  // Fixture: audio 25 tokens/s + 2 per clip at 0.00001 USD/token (10 micros): 4 s = 102 tokens = 1020 micros.
  const clip = [{ durationSeconds: '4' }];
  const backend = (audio: Record<string, unknown>) => fixtureModel({ media_profiles: { audio: { ...audio, metering: 'backend' } } as never });

  it('boundary metering: the measured audio, exactly', () => {
    expect(maxTranscriptionCostMicros(fixtureModel(), clip)).toBe(1020n);
  });

  it('backend metering: up to 4x the boundary count, which billing accepts and one token more it does not', () => {
    const model = backend({});
    expect(maxTranscriptionCostMicros(model, clip)).toBe(4080n);
    const billed = (reported: number) => BigInt(price(model, meter(model, { upstream: { audioPromptTokens: reported }, input: { audio: clip }, output: {} }, [])).costUsdMicros);
    expect(billed(408)).toBe(4080n);
    expect(billed(409)).toBeLessThanOrEqual(4080n);
  });

  it('backend metering without a placeholder to bound the count: unbounded', () => {
    const model = backend({});
    expect(maxTranscriptionCostMicros({ ...model, architecture: { ...model.architecture, audio_placeholder: null } }, clip)).toBeNull();
  });
});

describe('maximum cost of an image request', () => {
  // 0.002 USD an input image, 0.04 USD an output image; no visual placeholder, so no image tokens.
  const model = fixtureModel({
    kind: 'image',
    architecture: { modality: 'text+image->image', input_modalities: ['text', 'image'], output_modalities: ['image'] },
    pricing: { input: { image: { count: '0.002' } }, output: { image: { count: '0.04' } } },
  });
  const billedFor = (returned: number, requested: number) => {
    const { billed } = boundImageCount(returned, requested);
    return BigInt(price(model, meter(model, { input: { images: [{ width: 64, height: 64 }] }, output: { imageCount: billed } })).costUsdMicros);
  };

  it('is the input images and n output images', () => {
    expect(maxImageCostMicros(model, [{ width: 64, height: 64 }], 2)).toBe(2_000n + 80_000n);
    expect(maxImageCostMicros(model, [], 1)).toBe(40_000n);
  });

  it('is what billing charges for n images, and for n + 1 images no more', () => {
    const max = maxImageCostMicros(model, [{ width: 64, height: 64 }], 2);
    expect(billedFor(2, 2)).toBe(max);
    expect(billedFor(3, 2)).toBe(max);
  });
});

describe('maximum cost of a speech request', () => {
  // chorus-voices fixture: 15 micros a character, output audio 25 tokens/s at 1 micro a token.
  const work = { input: 'a'.repeat(100), clone: false, design: false, referenceSeconds: null };
  const billedFor = (seconds: string) => {
    const { billed } = boundSpeechSeconds(seconds, maxSpeechSeconds(100, 1));
    return BigInt(price(presetModel, meter(presetModel, speechMeasurement({ ...work, outputSeconds: billed }))).costUsdMicros);
  };

  it('is the characters and output audio at its bound: 100 characters, 60 s at speed 1, 240 s at speed 0.25', () => {
    expect(maxSpeechCostMicros(presetModel, work, 1)).toBe(1_500n + 1_500n);
    expect(maxSpeechCostMicros(presetModel, work, 0.25)).toBe(1_500n + 6_000n);
  });

  it('counts voice work and reference audio as they will be billed', () => {
    const cloned = { ...work, clone: true, referenceSeconds: '4' };
    // + 2000 micros the clone, + 4 s of reference at 25 tokens/s x 0.5 micros = 50
    expect(maxSpeechCostMicros(cloneModel, cloned, 1)).toBe(1_500n + 1_500n + 2_000n + 50n);
  });

  it('is what billing charges for audio at the bound, and for audio past it no more', () => {
    const max = maxSpeechCostMicros(presetModel, work, 1);
    expect(billedFor('60')).toBe(max);
    expect(billedFor('60.04')).toBe(max);
    expect(billedFor('600')).toBe(max);
  });
});
