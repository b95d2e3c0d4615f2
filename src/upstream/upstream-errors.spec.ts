import type { CatalogModel } from '../catalog/catalog.types';
import { relayableDetail, upstreamErrorFor, UPSTREAM_DETAIL_CHARS } from './upstream-errors';

const SECRET = 'upstream-key-7f3a9c21e0b84d6fa5c3e1d2';
const model = { id: 'aria', upstream: { base_url: 'http://u', api_key: SECRET, timeout_ms: 1000, cold_start_seconds: 1 } } as CatalogModel;

/** Every piece of 4 or more characters of the secret still in `text`. */
const leakedPieces = (text: string) => {
  const pieces: string[] = [];
  for (let start = 0; start + 4 <= SECRET.length; start++) if (text.includes(SECRET.slice(start, start + 4)) && !'upstream-key-'.includes(SECRET.slice(start, start + 4))) pieces.push(SECRET.slice(start, start + 4));
  return pieces;
};

describe('relayableDetail', () => {
  it.each([470, 480, 490, 499, 500])('redacts before it truncates: secret at character %i of the text', (at) => {
    const detail = relayableDetail(`${'x'.repeat(at)}${SECRET} trailing words`, model);
    expect(leakedPieces(detail)).toEqual([]);
    console.log(`secret at ${at}: ${detail.length} characters relayed, ends ${JSON.stringify(detail.slice(-16))}`);
  });

  it('cuts a clean text at the limit and marks the cut', () => {
    expect(relayableDetail('y'.repeat(UPSTREAM_DETAIL_CHARS), model)).toBe('y'.repeat(UPSTREAM_DETAIL_CHARS));
    expect(relayableDetail('y'.repeat(UPSTREAM_DETAIL_CHARS + 1), model)).toBe(`${'y'.repeat(UPSTREAM_DETAIL_CHARS)}…`);
  });

  it('cuts a base64 echo of the Authorization header whole', () => {
    const echo = Buffer.from(`Authorization: Bearer ${SECRET}`).toString('base64');
    const detail = relayableDetail(`header was ${echo}`, model);
    expect(detail).toMatch(/^header was .{0,32}\[redacted\].{0,4}$/);
    expect(detail).not.toContain(Buffer.from(SECRET).toString('base64').slice(4, 12));
  });
});

describe('upstreamErrorFor', () => {
  it('relays a non-JSON 500 body that straddles the cut without any piece of the key', () => {
    const body = `${'e'.repeat(480)}Bearer${SECRET}`;
    const error = upstreamErrorFor(model, 500, undefined, body);
    expect([error.status, error.code]).toEqual([502, 'upstream_error']);
    expect(leakedPieces(error.message)).toEqual([]);
  });

  it('bounds a JSON error message too', () => {
    const error = upstreamErrorFor(model, 400, undefined, JSON.stringify({ error: { message: 'm'.repeat(5000) } }));
    expect(error.message).toBe(`${'m'.repeat(UPSTREAM_DETAIL_CHARS)}…`);
  });
});
