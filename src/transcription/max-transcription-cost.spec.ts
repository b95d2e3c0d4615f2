import { fixtureModel } from '../../test/support/catalog-model.fixture';
import { maxTranscriptionCostMicros } from './max-transcription-cost';
import { meter } from '../billing/metering/meter';
import { price } from '../billing/pricing/price';

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
