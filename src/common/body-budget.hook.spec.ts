import { request } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
import { BodyBudget } from './body-budget';
import { limitBodiesInFlight } from './body-budget.hook';

const KiB = 1024;
const BODY = 512 * KiB;
const LIMIT = 1024 * KiB;

/** Every body chunk Node's HTTP parser hands the request, and when the request has been read to its end. */
interface Seen {
  chunks: Buffer[];
  ended: Promise<void>;
}

/** An app with the hook (body limit 1 MiB, a short idle deadline) and a recorder outside it that sees every chunk. */
async function appWith(budget: BodyBudget, record: (seen: Seen) => void, bodyMs = 60_000): Promise<FastifyInstance> {
  const app = Fastify();
  limitBodiesInFlight(app, { budget, limitBytes: LIMIT, deadlines: { headersMs: 5_000, bodyIdleMs: 300, bodyMs } });
  app.addHook('onRequest', (req: FastifyRequest, _reply, done) => {
    const raw = req.raw;
    const push = raw.push;
    const seen: Seen = { chunks: [], ended: new Promise((resolve) => raw.once('end', resolve)) };
    record(seen);
    raw.push = (chunk: Buffer | null, encoding?: BufferEncoding) => {
      if (chunk) seen.chunks.push(chunk);
      return push.call(raw, chunk, encoding);
    };
    done();
  });
  app.addContentTypeParser('application/octet-stream', (_req, payload, done) => void payload.resume().once('end', () => done(null, null)));
  app.post('/upload', async () => ({ ok: true }));
  await app.listen({ port: 0, host: '127.0.0.1' });
  return app;
}

function post(app: FastifyInstance, headers: Record<string, string>, body: Buffer = Buffer.alloc(BODY, 1)): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const port = (app.server.address() as AddressInfo).port;
    const req = request({ host: '127.0.0.1', port, method: 'POST', path: '/upload', headers: { 'content-type': 'application/octet-stream', ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk)).on('end', () => resolve({ status: res.statusCode!, body: Buffer.concat(chunks).toString() }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** A raw socket that sends `head` and then nothing; resolves with what it read when the server closes it. */
function idleClient(app: FastifyInstance, head: string): { socket: Socket; closed: Promise<string> } {
  const socket = connect((app.server.address() as AddressInfo).port, '127.0.0.1');
  socket.on('error', () => undefined); // a write racing the server's close
  const chunks: Buffer[] = [];
  socket.on('data', (chunk: Buffer) => chunks.push(chunk));
  socket.write(head);
  return { socket, closed: new Promise((resolve) => socket.once('close', () => resolve(Buffer.concat(chunks).toString()))) };
}

describe('a body refused by the budget', () => {
  let app: FastifyInstance;
  let seen: Seen;
  const budget = new BodyBudget(64 * KiB);

  beforeAll(async () => {
    app = await appWith(budget, (s) => (seen = s));
    budget.tryTake(64 * KiB); // another body holds the whole budget: any byte more is refused
  });
  afterAll(() => app.close());

  const received = () => seen.chunks.reduce((sum, chunk) => sum + chunk.byteLength, 0);

  it.each([
    ['a Content-Length', { 'content-length': String(BODY) }],
    ['chunked', { 'transfer-encoding': 'chunked' }],
  ])('with %s: answered 503 when its arriving bytes cross the budget, each dropped chunk freed', async (_name, headers) => {
    expect((await post(app, headers)).status).toBe(503);
    await seen.ended;
    expect([seen.chunks.length > 0, received()]).toEqual([true, 0]);
  });
});

describe('bodies read on the gateway terms', () => {
  let app: FastifyInstance;
  const budget = new BodyBudget(64 * KiB);

  beforeAll(async () => {
    app = await appWith(budget, () => undefined);
  });
  afterAll(() => app.close());

  it('takes from the budget only bytes that arrived: a declared body that sends nothing holds none of it', async () => {
    const idle = idleClient(app, `POST /upload HTTP/1.1\r\nHost: x\r\nContent-Type: application/octet-stream\r\nContent-Length: ${LIMIT}\r\n\r\n`);
    await new Promise((resolve) => idle.socket.once('connect', resolve));
    expect(budget.bytesInFlight).toBe(0);
    expect((await post(app, { 'content-length': String(32 * KiB) }, Buffer.alloc(32 * KiB))).status).toBe(200);
    // The idle body is then answered 408 and its connection closed by the idle deadline.
    const answer = await idle.closed;
    expect(answer).toMatch(/^HTTP\/1.1 408 /);
    expect(answer).toContain('"code":"request_timeout"');
    expect(budget.bytesInFlight).toBe(0);
  });

  it('413s a declared length past the limit at once, and admits one at it', async () => {
    const past = idleClient(app, `POST /upload HTTP/1.1\r\nHost: x\r\nContent-Type: application/octet-stream\r\nContent-Length: ${LIMIT + 1}\r\n\r\n`);
    const started = Date.now();
    const answer = await new Promise<string>((resolve) => past.socket.once('data', (chunk: Buffer) => resolve(chunk.toString())));
    console.log(`declared ${LIMIT + 1} bytes: 413 after ${Date.now() - started} ms, nothing sent`);
    expect(answer).toMatch(/^HTTP\/1.1 413 /);
    expect(answer).toContain('"code":"request_too_large"');
    past.socket.destroy();
    expect((await post(app, { 'content-length': String(LIMIT) }, Buffer.alloc(LIMIT))).status).toBe(200);
  });

  it('413s a chunked body when its counted bytes pass the limit, and admits one at it', async () => {
    expect((await post(app, { 'transfer-encoding': 'chunked' }, Buffer.alloc(LIMIT))).status).toBe(200);
    const past = await post(app, { 'transfer-encoding': 'chunked' }, Buffer.alloc(LIMIT + 1)).catch((error: Error) => error);
    // The client may see its 413 or, having written on after the cut, a reset; never a 200.
    if (!(past instanceof Error)) expect([past.status, JSON.parse(past.body).error.code]).toEqual([413, 'request_too_large']);
  });
});

describe('the whole-body deadline', () => {
  let app: FastifyInstance;
  const budget = new BodyBudget(64 * KiB);

  beforeAll(async () => {
    app = await appWith(budget, () => undefined, 800);
  });
  afterAll(() => app.close());

  it('answers 408 and closes a body that trickles in, a byte at a time within the idle deadline', async () => {
    const slow = idleClient(app, `POST /upload HTTP/1.1\r\nHost: x\r\nContent-Type: application/octet-stream\r\nContent-Length: ${KiB}\r\n\r\n`);
    const trickle = setInterval(() => slow.socket.write('a'), 50);
    const answer = await slow.closed;
    clearInterval(trickle);
    expect(answer).toMatch(/^HTTP\/1.1 408 /);
    expect(budget.bytesInFlight).toBe(0);
  });

  it('lets a body that keeps to it through', async () => {
    expect((await post(app, { 'content-length': String(32 * KiB) }, Buffer.alloc(32 * KiB))).status).toBe(200);
  });
});
