import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import Fastify, { type FastifyInstance } from 'fastify';
import { parseJsonBodies } from './json-body-parser';

const LIMIT = 1024 * 1024;

/** A gateway-like instance whose route echoes the parsed body; the payload reaches the parser as `chunks`. */
async function echoServer(chunks: () => Buffer[]): Promise<FastifyInstance> {
  const app = Fastify();
  app.removeContentTypeParser(['application/json']);
  parseJsonBodies(app, LIMIT);
  // preParsing may hand the parser another stream: here one that yields exactly these Buffer objects.
  app.addHook('preParsing', async () => Readable.from(chunks(), { objectMode: false }));
  app.post('/echo', async (request) => request.body);
  await app.listen({ port: 0, host: '127.0.0.1' });
  return app;
}

function split(text: string, parts: number): Buffer[] {
  const bytes = Buffer.from(text);
  const size = Math.ceil(bytes.length / parts);
  // Copies, each owning its memory, as the chunks Node's HTTP parser produces.
  return Array.from({ length: parts }, (_, i) => {
    const part = bytes.subarray(i * size, (i + 1) * size);
    const own = Buffer.allocUnsafeSlow(part.length);
    part.copy(own);
    return own;
  });
}

describe('reading JSON bodies', () => {
  const value = { model: 'aria', messages: [{ role: 'user', content: 'é'.repeat(3000) }] };
  const text = JSON.stringify(value);
  let chunks: Buffer[] = [];
  let app: FastifyInstance;

  beforeAll(async () => (app = await echoServer(() => chunks)));
  afterAll(() => app.close());

  /** Posts filler bytes over HTTP (declared or chunked); what the parser reads is `chunks`. */
  const post = (contentLength: number | undefined) =>
    new Promise<{ statusCode: number; json: () => unknown }>((resolve, reject) => {
      const length = contentLength === undefined ? { 'transfer-encoding': 'chunked' } : { 'content-length': String(contentLength) };
      const headers = { 'content-type': 'application/json', ...length };
      const port = (app.server.address() as AddressInfo).port;
      const req = request({ host: '127.0.0.1', port, method: 'POST', path: '/echo', headers }, (res) => {
        let body = '';
        res.setEncoding('utf8').on('data', (part: string) => (body += part));
        res.on('end', () => resolve({ statusCode: res.statusCode!, json: () => JSON.parse(body) }));
      });
      req.on('error', reject);
      req.end(' '.repeat(contentLength ?? 1));
    });

  it('parses a body that arrives in many chunks, multi-byte characters split between them, and frees each chunk it copied', async () => {
    chunks = split(text, 7);
    const response = await post(Buffer.byteLength(text));
    expect([response.statusCode, response.json()]).toEqual([200, value]);
    expect(chunks.map((chunk) => chunk.length)).toEqual([0, 0, 0, 0, 0, 0, 0]);
  });

  it('uses a body that arrives in one chunk as it is, without copying or freeing it', async () => {
    chunks = split(text, 1);
    const response = await post(Buffer.byteLength(text));
    expect([response.statusCode, response.json()]).toEqual([200, value]);
    expect(chunks[0].length).toBe(Buffer.byteLength(text));
  });

  it('parses a chunked body (no Content-Length) and frees its chunks once joined', async () => {
    chunks = split(text, 3);
    const response = await post(undefined);
    expect([response.statusCode, response.json()]).toEqual([200, value]);
    expect(chunks.map((chunk) => chunk.length)).toEqual([0, 0, 0]);
  });

  it('refuses a body one byte shorter or one byte longer than its Content-Length', async () => {
    chunks = split(text, 4);
    expect((await post(Buffer.byteLength(text) + 1)).statusCode).toBe(400);
    chunks = split(text, 4);
    expect((await post(Buffer.byteLength(text) - 1)).statusCode).toBe(400);
  });

  it('refuses a declared length over the limit without reading, and accepts one at the limit', async () => {
    chunks = split(text, 2);
    expect((await post(LIMIT + 1)).statusCode).toBe(413);
    const atLimit = JSON.stringify({ pad: 'x'.repeat(LIMIT - 10) });
    chunks = split(atLimit, 16);
    const response = await post(LIMIT);
    expect([Buffer.byteLength(atLimit), response.statusCode]).toEqual([LIMIT, 200]);
  });
});
