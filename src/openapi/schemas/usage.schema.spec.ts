// The Usage schema against real vectors from the metering and pricing code: a field added to or
// dropped from src/billing/usage.ts without the schema fails here.
import { fixtureModel } from '../../../test/support/catalog-model.fixture';
import type { Measurement } from '../../billing/metering/measurement';
import { meter } from '../../billing/metering/meter';
import { price } from '../../billing/pricing/price';
import { specUsageOf } from '../../billing/client-usage';
import { emptyInputUsage, emptyOutputUsage, type Usage } from '../../billing/usage';
import { componentValidator } from './component-validator';
import { RESPONSE_SCHEMAS } from '.';

const check = componentValidator(RESPONSE_SCHEMAS);

const everyModality: Measurement = {
  upstream: { promptTokens: 900, cachedTokens: 100, completionTokens: 60, reasoningTokens: 20 },
  input: {
    audio: [{ durationSeconds: '3.25' }],
    images: [{ width: 640, height: 480 }],
    videos: [{ durationSeconds: '2.0', width: 320, height: 240, frames: 4 }],
    voice: { clone: true, design: false, referenceSeconds: '4.5' },
  },
  output: { audio: [{ durationSeconds: '1.5' }], toolCalls: 2, webSearchCalls: 1, imageCount: 1 },
};

function pricedUsage(measurement: Measurement): Usage {
  const model = fixtureModel();
  const metered = meter(model, measurement);
  return specUsageOf({ input: metered.input, output: metered.output, cost_usd_micros: price(model, metered).costUsdMicros });
}

describe('Usage schema', () => {
  it('accepts a metered and priced vector with every modality filled', () => {
    const usage = pricedUsage(everyModality);
    expect(usage.input.audio.duration).not.toBe('0');
    expect(check('Usage', usage)).toEqual([]);
  });

  it('accepts the empty, uncharged vector', () => {
    expect(check('Usage', specUsageOf({ input: emptyInputUsage(), output: emptyOutputUsage(), cost_usd_micros: null }))).toEqual([]);
  });

  it('rejects a property the code does not send', () => {
    const usage = { ...pricedUsage(everyModality), total: 1 };
    expect(check('Usage', usage).map((e) => e.message)).toEqual(['must NOT have additional properties']);
  });

  it('rejects a modality missing one of its fields', () => {
    const { tokens: _dropped, ...text } = emptyInputUsage().text;
    const usage = { input: { ...emptyInputUsage(), text }, output: specUsageOf({ input: emptyInputUsage(), output: emptyOutputUsage(), cost_usd_micros: 0 }).output, cost_usd_micros: 0 };
    expect(check('Usage', usage).map((e) => `${e.instancePath} ${e.message}`)).toEqual(["/input/text must have required property 'tokens'"]);
  });

  it('rejects a float duration and a fractional cost', () => {
    const usage = pricedUsage(everyModality);
    const broken = { ...usage, input: { ...usage.input, audio: { duration: 3.25 } }, cost_usd_micros: 1.5 };
    expect(new Set(check('Usage', broken).map((e) => e.instancePath))).toEqual(new Set(['/input/audio/duration', '/cost_usd_micros']));
  });
});

describe('Usage as a client sees it (specUsageOf)', () => {
  it('keeps exactly the spec\'s keys, nested ones included', () => {
    const usage = pricedUsage(everyModality);
    expect(Object.keys(usage)).toEqual(['input', 'output', 'cost_usd_micros']);
    expect(Object.keys(usage.output)).toEqual(['text', 'audio', 'image', 'video', 'voice', 'tools']);
    expect(Object.keys(usage.output.tools)).toEqual(['call_count', 'tokens']);
    expect(usage.output.tools).toEqual({ call_count: 2, tokens: 0 });
  });

  it('is what the schema refuses web_search_calls in (the recorded vector keeps it)', () => {
    const model = fixtureModel();
    const metered = meter(model, everyModality);
    const recorded = { input: metered.input, output: metered.output, cost_usd_micros: 1 };
    expect(check('Usage', recorded).map((e) => `${e.instancePath} ${e.message}`)).toEqual(['/output/tools must NOT have additional properties']);
    expect(check('RecordedOutputUsage', metered.output)).toEqual([]);
  });
});
