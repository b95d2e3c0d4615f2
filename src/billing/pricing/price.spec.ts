import type { PricingMetadata } from '../../catalog/catalog.types';
import type { PricedLineItem } from '../billing.events';
import { FIXTURE_PRICING, fixtureModel } from '../../../test/support/catalog-model.fixture';
import { emptyInputUsage, emptyOutputUsage, type InputUsage, type OutputUsage } from '../usage';
import { type BillableUsage, price } from './price';

type Item = [name: string, quantity: string, unitPrice: string, exactMicros: string, amountMicros: number];

interface Case {
  pricing?: Partial<PricingMetadata>;
  input?: (usage: InputUsage) => void;
  output?: (usage: OutputUsage) => void;
  audioTokens?: BillableUsage['audioTokens'];
  channels?: number;
  items: Item[];
  total: number;
}

function run({ pricing, input, output, audioTokens, channels }: Case) {
  const usage: BillableUsage = { input: emptyInputUsage(), output: emptyOutputUsage(), audioTokens };
  input?.(usage.input);
  output?.(usage.output);
  const model = fixtureModel({
    pricing: { ...FIXTURE_PRICING, ...pricing },
    ...(channels ? { output_defaults: { channels } } : {}),
  });
  return price(model, usage);
}

const asItems = (lineItems: PricedLineItem[]): Item[] =>
  lineItems.map((item) => [item.name, item.quantity, item.unit_price_usd, item.exact_usd_micros, Number(item.amount_usd_micros)]);

const expectPriced = (testCase: Case) => {
  const priced = run(testCase);
  expect(asItems(priced.lineItems)).toEqual(testCase.items);
  expect(priced.costUsdMicros).toBe(testCase.total);
  expect(priced.lineItems.reduce((sum, item) => sum + Number(item.amount_usd_micros), 0)).toBe(priced.costUsdMicros);
};

const M = 'symphony-notes';

describe('price: every unit and modality', () => {
  it.each<[string, Case]>([
    ['input text tokens', { input: (u) => { u.text.tokens = 1000; }, items: [[`${M}, input text tokens`, '1000', '0.000001', '1000', 1000]], total: 1000 }],
    ['cached tokens at the cached rate only', {
      input: (u) => { u.text.tokens = 700; u.text.cached_tokens = 300; },
      items: [[`${M}, input text tokens`, '700', '0.000001', '700', 700], [`${M}, input text cached tokens`, '300', '0.0000005', '150', 150]],
      total: 850,
    }],
    ['cached tokens without a cached rate pay the token rate once', {
      pricing: { input: { text: { tokens: '0.000001' } } },
      input: (u) => { u.text.tokens = 700; u.text.cached_tokens = 300; },
      items: [[`${M}, input text tokens`, '700', '0.000001', '700', 700], [`${M}, input text cached tokens`, '300', '0.000001', '300', 300]],
      total: 1000,
    }],
    ['TTS characters', {
      pricing: { input: { text: { characters: '0.000015' } } },
      input: (u) => { u.text.characters = 42; },
      items: [[`${M}, input text characters`, '42', '0.000015', '630', 630]],
      total: 630,
    }],
    ['image tokens and image count', {
      pricing: { input: { image: { tokens: '0.000002', count: '0.001' } } },
      input: (u) => { u.image = { count: 2, megapixels: '2.123776', tiles: 2755, tokens: 2755 }; },
      items: [[`${M}, input image tokens`, '2755', '0.000002', '5510', 5510], [`${M}, input image count`, '2', '0.001', '2000', 2000]],
      total: 7510,
    }],
    ['audio tokens as metered', {
      input: (u) => { u.audio.duration = '10'; },
      audioTokens: { input: 260, output: 0 },
      items: [[`${M}, input audio tokens`, '260', '0.00001', '2600', 2600]],
      total: 2600,
    }],
    ['audio tokens derived from the duration when not given (one clip per side)', {
      pricing: { output: { text: { tokens: '0.000002' }, audio: { tokens: '0.00002' } } },
      channels: 2,
      input: (u) => { u.audio.duration = '10'; },
      output: (u) => { u.audio.duration = '10'; },
      items: [[`${M}, input audio tokens`, '252', '0.00001', '2520', 2520], [`${M}, output audio tokens`, '502', '0.00002', '10040', 10040]],
      total: 12560,
    }],
    ['video tokens', { input: (u) => { u.video = { duration: '5', frames: 8, tokens: 3128 }; }, items: [[`${M}, input video tokens`, '3128', '0.000003', '9384', 9384]], total: 9384 }],
    ['voice clone and design operations as count', {
      pricing: { input: { voice: { count: '0.05' } } },
      input: (u) => { u.voice = { clone_count: 1, design_count: 1, reference_duration: '12.5' }; },
      items: [[`${M}, input voice count`, '2', '0.05', '100000', 100000]],
      total: 100000,
    }],
    ['generated images by count', {
      pricing: { output: { image: { count: '0.04' } } },
      output: (u) => { u.image.count = 3; },
      items: [[`${M}, output image count`, '3', '0.04', '120000', 120000]],
      total: 120000,
    }],
    ['reasoning tokens at internal_reasoning instead of the output rate', {
      pricing: { internal_reasoning: '0.000003' },
      output: (u) => { u.text.tokens = 30; u.text.reasoning_tokens = 20; },
      items: [[`${M}, output text tokens`, '30', '0.000002', '60', 60], [`${M}, output text reasoning tokens`, '20', '0.000003', '60', 60]],
      total: 120,
    }],
    ['reasoning tokens at the output rate without internal_reasoning', {
      output: (u) => { u.text.tokens = 30; u.text.reasoning_tokens = 20; },
      items: [[`${M}, output text tokens`, '30', '0.000002', '60', 60], [`${M}, output text reasoning tokens`, '20', '0.000002', '40', 40]],
      total: 100,
    }],
    ['web search calls', {
      pricing: { web_search: '0.01' },
      output: (u) => { u.tools = { call_count: 3, tokens: 0, web_search_calls: 2 }; },
      items: [[`${M}, output tools web search`, '2', '0.01', '20000', 20000]],
      total: 20000,
    }],
    ['request fee', { pricing: { request: '0.001' }, items: [[`${M}, request`, '1', '0.001', '1000', 1000]], total: 1000 }],
    ['zero prices and zero quantities make no line items', {
      pricing: { request: '0', web_search: '0' },
      output: (u) => { u.tools.web_search_calls = 4; },
      items: [],
      total: 0,
    }],
    ['unpriced components cost nothing', {
      pricing: { input: { text: { tokens: '0.000001' } } },
      input: (u) => { u.text.tokens = 10; u.image = { count: 1, megapixels: '1', tiles: 4, tokens: 4 }; },
      items: [[`${M}, input text tokens`, '10', '0.000001', '10', 10]],
      total: 10,
    }],
  ])('%s', (_name, testCase) => expectPriced(testCase));
});

describe('price: discount is a multiplier of (1 - discount)', () => {
  const base = (discount: number | null | undefined): Case => ({
    pricing: { request: '0.0001', discount },
    input: (u) => { u.text.tokens = 1000; },
    items: [],
    total: 0,
  });
  it.each([
    [undefined, ['1000', '100'], ['1000', '100'], 1100],
    [null, ['1000', '100'], ['1000', '100'], 1100],
    [0, ['1000', '100'], ['1000', '100'], 1100],
    [0.25, ['750', '75'], ['750', '75'], 825],
    [1, [], [], 0],
  ])('discount %p', (discount, exact, rounded, total) => {
    const priced = run(base(discount));
    expect(priced.lineItems.map((item) => item.exact_usd_micros)).toEqual(exact);
    expect(priced.lineItems.map((item) => item.amount_usd_micros)).toEqual(rounded);
    expect(priced.costUsdMicros).toBe(total);
  });
});

describe('price: one rounding per request', () => {
  it.each<[string, Case]>([
    ['0.5 micros rounds up', { pricing: { input: { text: { tokens: '0.0000000005' } } }, input: (u) => { u.text.tokens = 1000; }, items: [[`${M}, input text tokens`, '1000', '0.0000000005', '0.5', 1]], total: 1 }],
    ['0.4999 micros rounds down', { pricing: { input: { text: { tokens: '0.0000000004999' } } }, input: (u) => { u.text.tokens = 1000; }, items: [[`${M}, input text tokens`, '1000', '0.0000000004999', '0.4999', 0]], total: 0 }],
    ['2.5 micros rounds up, not to even', { pricing: { input: { text: { tokens: '0.0000000025' } } }, input: (u) => { u.text.tokens = 1000; }, items: [[`${M}, input text tokens`, '1000', '0.0000000025', '2.5', 3]], total: 3 }],
    ['a discount lands between micros: 2.25 -> 2', { pricing: { discount: 0.25 }, input: (u) => { u.text.tokens = 3; }, items: [[`${M}, input text tokens`, '3', '0.000001', '2.25', 2]], total: 2 }],
    ['three 0.4 items round once to 1, given to the first', {
      pricing: { input: { text: { tokens: '0.0000004', cached_tokens: '0.0000004' } }, output: { text: { tokens: '0.0000004' } } },
      input: (u) => { u.text.tokens = 1; u.text.cached_tokens = 1; },
      output: (u) => { u.text.tokens = 1; },
      items: [[`${M}, input text tokens`, '1', '0.0000004', '0.4', 1], [`${M}, input text cached tokens`, '1', '0.0000004', '0.4', 0], [`${M}, output text tokens`, '1', '0.0000004', '0.4', 0]],
      total: 1,
    }],
    ['largest remainders take the leftover micros: 0.3 + 0.6 + 0.6 = 1.5 -> 2', {
      pricing: { input: { text: { tokens: '0.0000003', cached_tokens: '0.0000006' } }, output: { text: { tokens: '0.0000006' } } },
      input: (u) => { u.text.tokens = 1; u.text.cached_tokens = 1; },
      output: (u) => { u.text.tokens = 1; },
      items: [[`${M}, input text tokens`, '1', '0.0000003', '0.3', 0], [`${M}, input text cached tokens`, '1', '0.0000006', '0.6', 1], [`${M}, output text tokens`, '1', '0.0000006', '0.6', 1]],
      total: 2,
    }],
    ['no precision lost beyond 20 digits', {
      pricing: { input: { text: { tokens: '0.123456789012345678901' } } },
      input: (u) => { u.text.tokens = 987654321; },
      items: [[`${M}, input text tokens`, '987654321', '0.123456789012345678901', '121932631124828.532112251181221', 121932631124829]],
      total: 121932631124829,
    }],
  ])('%s', (_name, testCase) => expectPriced(testCase));
});
