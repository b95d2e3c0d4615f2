import { decodePayload, encodePayload } from './payload-codec';

const usage = JSON.stringify({
  requestId: '01a20e3c-cf30-720b-a04f-f767553a7d9e', correlationId: null, organizationId: 'org-demo', keyId: 'key-demo', model: 'aria', endpoint: '/v1/chat/completions',
  input: { text: { tokens: 10, characters: 0, cached_tokens: 0, reasoning_tokens: 0 }, audio: { duration: '0' }, image: { count: 0, megapixels: '0', tiles: 0, tokens: 0 }, video: { duration: '0', frames: 0, tokens: 0 }, voice: { clone_count: 0, design_count: 0, reference_duration: '0' } },
  output: { text: { tokens: 7, characters: 0, cached_tokens: 0, reasoning_tokens: 0 }, audio: { duration: '0' }, image: { count: 0, megapixels: '0', tiles: 0, tokens: 0 }, video: { duration: '0', frames: 0, tokens: 0 }, voice: { clone_count: 0, design_count: 0, reference_duration: '0' }, tools: { call_count: 0, tokens: 0, web_search_calls: 0 } },
  metering: 'boundary', occurredAt: '2026-11-24T15:46:35.985Z',
});
const cost = JSON.stringify({
  requestId: '01a20e3c-cf30-720b-a04f-f767553a7d9e', organizationId: 'org-demo', model: 'aria', endpoint: '/v1/chat/completions', costUsdMicros: 15,
  lineItems: [
    { name: 'aria, input text tokens', side: 'input', modality: 'text', unit: 'tokens', quantity: '10', unit_price_usd: '0.0000004', amount_usd_micros: '4', exact_usd_micros: '4' },
    { name: 'aria, output text tokens', side: 'output', modality: 'text', unit: 'tokens', quantity: '7', unit_price_usd: '0.0000016', amount_usd_micros: '11', exact_usd_micros: '11.2' },
  ],
  priceBookVersion: '2026-11-01', occurredAt: '2026-11-24T15:46:35.985Z',
});

/** Deterministic pseudo-random JSON values built from the codec's own fragments and awkward text. */
function randomJson(seed: number): string {
  let state = seed;
  const next = (n: number) => ((state = (Math.imul(state, 1103515245) + 12345) >>> 0) % n);
  const pieces = ['"},{"name":"', ',"audio":{"duration":"0"}', 'organizationId', '\u0001', '\t', '\n', 'é', '😀', '{"schemaVersion":1}', '","keyId":"', 'x'];
  const text = () => Array.from({ length: next(6) }, () => pieces[next(pieces.length)]).join('');
  const value = (depth: number): unknown => {
    switch (depth > 3 ? next(3) : next(5)) {
      case 0: return text();
      case 1: return next(1000) - 500;
      case 2: return null;
      case 3: return Array.from({ length: next(4) }, () => value(depth + 1));
      default: return Object.fromEntries(Array.from({ length: next(4) }, () => [text(), value(depth + 1)]));
    }
  };
  return JSON.stringify(value(0));
}

describe('payload codec', () => {
  it('gives back exactly the JSON of the billing events, in about a third of the bytes or less', () => {
    for (const json of [usage, cost, '{"schemaVersion":1}', '{}']) expect(decodePayload(encodePayload(json))).toBe(json);
    expect(Buffer.byteLength(encodePayload(usage))).toBeLessThan(usage.length / 6);
    expect(Buffer.byteLength(encodePayload(cost))).toBeLessThan(cost.length / 3);
    expect(encodePayload('{"schemaVersion":1}')).toHaveLength(1);
  });

  it('round-trips any JSON text, including text made of its own fragments and escapes', () => {
    for (let seed = 1; seed <= 2000; seed++) {
      const json = randomJson(seed);
      expect(decodePayload(encodePayload(json))).toBe(json);
    }
  });

  it('keeps a text holding a raw control character verbatim, and passes plain stored JSON through', () => {
    const raw = '{"a":"\u0001\u0007"}';
    expect(encodePayload(raw)).toBe(`\t${raw}`);
    expect(decodePayload(encodePayload(raw))).toBe(raw);
    expect(decodePayload(usage)).toBe(usage);
    expect(decodePayload('')).toBe('');
  });
});
