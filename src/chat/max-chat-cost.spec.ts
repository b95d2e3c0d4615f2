import { fixtureModel, FIXTURE_PRICING } from '../../test/support/catalog-model.fixture';
import { maxChatCostMicros, type ChatCostBounds } from './max-chat-cost';
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
