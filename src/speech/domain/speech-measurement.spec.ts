import { meter } from '../../billing/metering/meter';
import { price } from '../../billing/pricing/price';
import { characterCount, speechMeasurement } from './speech-measurement';
import { cloneModel, designModel, presetModel } from '../../../test/support/speech-models.fixture';

describe('speechMeasurement priced through the catalog', () => {
  it('bills preset speech by input characters and output audio tokens', () => {
    const measurement = speechMeasurement({ input: 'Hello, world', clone: false, design: false, referenceSeconds: null, outputSeconds: '2.01' });
    const usage = meter(presetModel, measurement);
    expect(usage.input.text.characters).toBe(12);
    expect(usage.output.audio.duration).toBe('2.01');
    expect(usage.audioTokens).toEqual({ input: 0, output: 51 });
    // 12 x 0.000015 USD + ceil(25 x 2.01) = 51 tokens x 0.000001 USD = 180 + 51 micros
    expect(price(presetModel, usage).costUsdMicros).toBe(231);
  });

  it('bills a clone for its reference audio and one voice operation', () => {
    const measurement = speechMeasurement({ input: 'abc', clone: true, design: false, referenceSeconds: '3.5', outputSeconds: '1' });
    const usage = meter(cloneModel, measurement);
    expect(usage.input.voice).toEqual({ clone_count: 1, design_count: 0, reference_duration: '3.5' });
    expect(usage.input.audio.duration).toBe('3.5');
    // 45 (text) + ceil(25 x 3.5) = 88 tokens x 0.5 = 44 + 2000 (voice) + 25 (output)
    expect(price(cloneModel, usage).costUsdMicros).toBe(45 + 44 + 2000 + 25);
  });

  it('bills a designed voice once and no reference audio', () => {
    const usage = meter(designModel, speechMeasurement({ input: 'ab', clone: false, design: true, referenceSeconds: null, outputSeconds: '0.04' }));
    expect(usage.input.voice).toEqual({ clone_count: 0, design_count: 1, reference_duration: '0' });
    expect(usage.input.audio.duration).toBe('0');
    expect(price(designModel, usage).costUsdMicros).toBe(40 + 4000 + 1);
  });

  it('bills a stream that ended early for the characters of the segments sent, not the whole input', () => {
    const measurement = speechMeasurement({ input: 'x'.repeat(15_001), sentCharacters: 4_095, clone: false, design: false, referenceSeconds: null, outputSeconds: '1' });
    const usage = meter(presetModel, measurement);
    expect(usage.input.text.characters).toBe(4_095);
    // 4,095 x 15 micros + 25 output tokens
    expect(price(presetModel, usage).costUsdMicros).toBe(4_095 * 15 + 25);
  });

  it('counts code points, not UTF-16 units', () => {
    expect(characterCount('héllo 👋 世界')).toBe(10);
  });
});
