// The worked examples of docs/pricing.md, metered and priced end to end.
import type { CatalogModel } from '../../catalog/catalog.types';
import { fixtureModel } from '../../../test/support/catalog-model.fixture';
import type { Measurement } from '../metering/measurement';
import { meter } from '../metering/meter';
import { price } from './price';

const aria = fixtureModel({
  id: 'aria',
  pricing: {
    input: { text: { tokens: '0.0000004', cached_tokens: '0.0000001' } },
    output: { text: { tokens: '0.0000016' } },
    internal_reasoning: '0.0000016',
    discount: 0,
  },
});
const symphonyNotes = fixtureModel({
  pricing: { input: { audio: { tokens: '0.0000025' }, text: { tokens: '0.0000004' } }, output: { text: { tokens: '0.000002' } } },
});

describe('docs/pricing.md worked examples', () => {
  it.each<[string, CatalogModel, Measurement, Array<[string, string, string, string]>, number]>([
    [
      'aria: cached and reasoning tokens',
      aria,
      { upstream: { promptTokens: 1000, cachedTokens: 400, completionTokens: 300, reasoningTokens: 100 }, input: {}, output: {} },
      [
        ['aria, input text tokens', '600', '240', '240'],
        ['aria, input text cached tokens', '400', '40', '40'],
        ['aria, output text tokens', '200', '320', '320'],
        ['aria, output text reasoning tokens', '100', '160', '160'],
      ],
      760,
    ],
    [
      'symphony-notes: a 10 s caption clip',
      symphonyNotes,
      { upstream: { promptTokens: 300, completionTokens: 40 }, input: { audio: [{ durationSeconds: '10' }] }, output: {} },
      [
        ['symphony-notes, input text tokens', '48', '19.2', '19'],
        ['symphony-notes, input audio tokens', '252', '630', '630'],
        ['symphony-notes, output text tokens', '40', '80', '80'],
      ],
      729,
    ],
  ])('%s', (_name, model, measurement, items, total) => {
    const priced = price(model, meter(model, measurement));
    expect(priced.lineItems.map((i) => [i.name, i.quantity, i.exact_usd_micros, i.amount_usd_micros])).toEqual(items);
    expect(priced.costUsdMicros).toBe(total);
  });
});
