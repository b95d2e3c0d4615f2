import { Readable } from 'node:stream';
import type { Dispatcher } from 'undici';
import { collectBounded, readBoundedBytes, readBoundedJson, readErrorText } from './bounded-body';
import { upstreamLimitsFrom, DEFAULT_UPSTREAM_LIMITS } from './upstream-limits';

function answer(parts: string[], headers: Record<string, string> = {}): Dispatcher.ResponseData & { body: Readable } {
  return { statusCode: 200, headers, body: Readable.from(parts.map((p) => Buffer.from(p))) } as unknown as Dispatcher.ResponseData & { body: Readable };
}

describe('bounded upstream answers', () => {
  it('reads an answer of exactly the limit and refuses one byte more: 502 upstream_response_too_large', async () => {
    expect((await readBoundedBytes(answer(['12345', '67890']), 'aria', 10)).toString()).toBe('1234567890');
    await expect(readBoundedBytes(answer(['12345', '678901']), 'aria', 10)).rejects.toMatchObject({ status: 502, code: 'upstream_response_too_large' });
  });

  it('refuses a declared Content-Length over the limit without reading the body', async () => {
    const response = answer(['x'], { 'content-length': '11' });
    await expect(readBoundedBytes(response, 'aria', 10)).rejects.toMatchObject({ code: 'upstream_response_too_large' });
    expect(response.body.destroyed).toBe(true);
  });

  it('stops reading an endless answer at the limit', async () => {
    async function* endless() {
      for (;;) yield Buffer.alloc(1024);
    }
    await expect(collectBounded(endless(), 'canvas', 64 * 1024)).rejects.toMatchObject({ code: 'upstream_response_too_large' });
  });

  it('parses JSON, and gives undefined for an answer that is not JSON', async () => {
    expect(await readBoundedJson(answer(['{"a":', '1}']), 'aria', 100)).toEqual({ a: 1 });
    expect(await readBoundedJson(answer(['<html>']), 'aria', 100)).toBeUndefined();
  });

  it('keeps only the start of an error answer', async () => {
    expect(await readErrorText(answer(['abc', 'def', 'ghi']), 4)).toBe('abcd');
    expect(await readErrorText(answer(['ab']), 4)).toBe('ab');
  });
});

describe('upstream limits from the environment', () => {
  it('defaults, reads and refuses', () => {
    expect(upstreamLimitsFrom({})).toEqual(DEFAULT_UPSTREAM_LIMITS);
    expect(upstreamLimitsFrom({ GATEWAY_UPSTREAM_MAX_BODY_BYTES: '100', GATEWAY_UPSTREAM_MAX_EVENT_BYTES: '7' })).toEqual({ maxBodyBytes: 100, maxEventBytes: 7 });
    expect(() => upstreamLimitsFrom({ GATEWAY_UPSTREAM_MAX_EVENT_BYTES: '0' })).toThrow(/GATEWAY_UPSTREAM_MAX_EVENT_BYTES/);
    expect(() => upstreamLimitsFrom({ GATEWAY_UPSTREAM_MAX_BODY_BYTES: '1e6' })).toThrow(/GATEWAY_UPSTREAM_MAX_BODY_BYTES/);
  });
});
