import { meter } from '../../billing/metering/meter';
import { fixtureModel } from '../../../test/support/catalog-model.fixture';
import { decisionUsage } from './decision-usage';

// Placeholders of the fixture: audio 2 + ceil(25 x s) tokens a clip; images by Qwen2-VL smart resize (factor 28).
const model = fixtureModel();

describe('decisionUsage', () => {
  it('has no modality breakdown for text-only evidence', () => {
    const metered = meter(model, { upstream: { promptTokens: 40, completionTokens: 2 }, input: {}, output: {} });
    expect(decisionUsage(metered, false)).toEqual({
      input_tokens: 40,
      input_tokens_details: { multimodal_tokens: null },
      output_tokens: 2,
      total_tokens: 42,
    });
  });

  it('splits input tokens by modality, text being what the media leaves of the upstream count', () => {
    // 56x56 -> 2x2 = 4 image tokens; 2 s of audio -> 2 + 50 = 52 audio tokens.
    const measurement = {
      upstream: { promptTokens: 100, completionTokens: 3 },
      input: { images: [{ width: 56, height: 56 }], audio: [{ durationSeconds: '2' }] },
      output: {},
    };
    expect(decisionUsage(meter(model, measurement), true)).toEqual({
      input_tokens: 100,
      input_tokens_details: { multimodal_tokens: { text: 44, image: 4, audio: 52 } },
      output_tokens: 3,
      total_tokens: 103,
    });
  });

  it('gives a breakdown for media evidence the gateway did not measure (web images)', () => {
    const metered = meter(model, { upstream: { promptTokens: 300, completionTokens: 1 }, input: {}, output: {} });
    expect(decisionUsage(metered, true).input_tokens_details.multimodal_tokens).toEqual({ text: 300, image: 0, audio: 0 });
  });

  it('counts cached prompt tokens as text', () => {
    const metered = meter(model, { upstream: { promptTokens: 30, completionTokens: 1, cachedTokens: 10 }, input: {}, output: {} });
    expect(decisionUsage(metered, false)).toMatchObject({ input_tokens: 30, total_tokens: 31 });
  });
});
