import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
import { BodyBudget } from './body-budget';
import { limitBodiesInFlight } from './body-budget.hook';

const KiB = 1024;
const BODY = 512 * KiB;

/** Every body chunk Node's HTTP parser hands the request, and when the request has been read to its end. */
interface Seen {
  chunks: Buffer[];
  ended: Promise<void>;
}

describe('a body refused by the budget', () => {
  let app: FastifyInstance;
  let seen: Seen;
  const budget = new BodyBudget(64 * KiB);

  /** Records at the source: for a declared length before the budget's hook (which ends the hooks when it refuses), for a chunked body after it (whose own wrapper drops refused chunks). */
  const record = (when: 'declared' | 'chunked') => (req: FastifyRequest, _reply: unknown, done: () => void) => {
    const raw = req.raw;
    if ((raw.headers['content-length'] !== undefined) !== (when === 'declared')) return done();
    const push = raw.push;
    seen = { chunks: [], ended: new Promise((resolve) => raw.once('end', resolve)) };
    raw.push = (chunk: Buffer | null, encoding?: BufferEncoding) => {
      if (chunk) seen.chunks.push(chunk);
      return push.call(raw, chunk, encoding);
    };
    done();
  };

  beforeAll(async () => {
    app = Fastify();
    app.addHook('onRequest', record('declared'));
    limitBodiesInFlight(app, budget, 100 * 1024 * KiB);
    app.addHook('onRequest', record('chunked'));
    app.addContentTypeParser('application/octet-stream', (_req, payload, done) => void payload.resume().once('end', () => done(null, null)));
    app.post('/upload', async () => ({ ok: true }));
    await app.listen({ port: 0, host: '127.0.0.1' });
    budget.tryTake(64 * KiB); // another body holds the whole budget: any byte more is refused
  });
  afterAll(() => app.close());

  function post(headers: Record<string, string>): Promise<number> {
    return new Promise((resolve, reject) => {
      const port = (app.server.address() as AddressInfo).port;
      const req = request({ host: '127.0.0.1', port, method: 'POST', path: '/upload', headers: { 'content-type': 'application/octet-stream', ...headers } }, (res) => {
        res.resume().on('end', () => resolve(res.statusCode!));
      });
      req.on('error', reject);
      req.end(Buffer.alloc(BODY, 1));
    });
  }

  const received = () => seen.chunks.reduce((sum, chunk) => sum + chunk.byteLength, 0);

  it('with a Content-Length: answered 503, then read to its end, each chunk freed as it arrives', async () => {
    expect(await post({ 'content-length': String(BODY) })).toBe(503);
    await seen.ended;
    expect(seen.chunks.length).toBeGreaterThan(0);
    expect(seen.chunks.every((chunk) => chunk.length === 0)).toBe(true);
  });

  it('chunked: answered 503 when it crosses the budget, each dropped chunk freed', async () => {
    expect(await post({ 'transfer-encoding': 'chunked' })).toBe(503);
    await seen.ended;
    expect([seen.chunks.length > 0, received()]).toEqual([true, 0]);
  });
});
