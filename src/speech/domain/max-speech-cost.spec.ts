import { maxSpeechCostMicros } from './max-speech-cost';
import { boundSpeechSeconds, maxSpeechSeconds } from '../../billing/metering/output-bounds';
import { speechMeasurement } from './speech-measurement';
import { cloneModel, presetModel } from '../../../test/support/speech-models.fixture';
import { meter } from '../../billing/metering/meter';
import { price } from '../../billing/pricing/price';

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
