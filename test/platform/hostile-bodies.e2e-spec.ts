// Hostile request bodies over real sockets (issue 37 items 1, 2, 7, 8): what the attacker gets, and
// that other tenants are served meanwhile. Deadlines are short here (GATEWAY_HEADERS_TIMEOUT_MS, and
// GATEWAY_BODY_IDLE_TIMEOUT_MS in a gateway of its own, so that a large upload from a test process
// starved on a busy machine is not cut) so the tests see them act. Memory figures: hostile-bodies-memory.
import { formEnd, formPart, openRaw, postHead } from '../support/raw-http';
import { silentWav } from '../support/large-upload';
import { startTestGateway, type TestGateway } from '../support/test-gateway';
import { imageFixture } from '../fixtures/media/generate';

const MiB = 1024 * 1024;
const BODY_LIMIT = 100 * MiB;
const FIELD_LIMIT = 64 * 1024;
const IDLE_MS = 1500;

describe('hostile request bodies', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    process.env.GATEWAY_HEADERS_TIMEOUT_MS = '1000';
    gw = await startTestGateway({ configure: (config) => (config.organizations[0].rate_limit = { requests: 100000, window_seconds: 60 }) });
  });
  afterAll(async () => {
    delete process.env.GATEWAY_HEADERS_TIMEOUT_MS;
    await gw?.close();
  });

  const chat = () => gw.postJson('/v1/chat/completions', { model: 'aria', max_tokens: 5, messages: [{ role: 'user', content: 'Say hi.' }] });
  const envelope = (code: string, param: string | null = null) => ({ error: { message: expect.any(String), type: expect.any(String), param, code } });
  const upstreamCalls = (path: string) => gw.simulator.control.received((r) => r.path === path).length;

  describe('a body that never comes', () => {
    it('an unauthenticated socket declaring 100 MiB is answered 401 at once and then closed', async () => {
      const idle = openRaw(gw.baseUrl);
      const started = Date.now();
      await idle.write(postHead('/v1/chat/completions', { 'content-type': 'application/json', 'content-length': BODY_LIMIT }));
      const answer = await idle.answer;
      console.log(`unauthenticated idle socket: ${answer?.status} after ${Date.now() - started} ms`);
      expect([answer?.status, answer?.headers.connection, JSON.parse(answer!.body)]).toEqual([401, 'close', envelope('missing_api_key')]);
      expect((await chat()).status).toBe(200);
      await idle.closed;
    });

    it('headers that never end are answered 408 and cut at the headers deadline', async () => {
      const slow = openRaw(gw.baseUrl);
      await slow.write('POST /v1/chat/completions HTTP/1.1\r\nHost: gateway\r\nAuthorization: Bear');
      const answer = await slow.answer;
      await slow.closed;
      expect([answer?.status, JSON.parse(answer!.body)]).toEqual([408, envelope('request_timeout')]);
      expect((await chat()).status).toBe(200);
    });
  });

  it.each([
    ['/v1/chat/completions', 'application/json'],
    ['/v1/audio/speech', 'application/json'],
    ['/v1/decisions', 'application/json'],
    ['/v1/images/generations', 'application/json'],
    ['/v1/images/edits', 'multipart/form-data; boundary=x'],
    ['/v1/audio/transcriptions', 'multipart/form-data; boundary=x'],
  ])('%s authenticates before reading a byte of the body: a declared 50 MB without a key is 401 at once', async (path, contentType) => {
    const client = openRaw(gw.baseUrl);
    await client.write(postHead(path, { 'content-type': contentType, 'content-length': 50_000_000 }));
    const answer = await client.answer;
    expect([answer?.status, JSON.parse(answer!.body)]).toEqual([401, envelope('missing_api_key')]);
    client.socket.destroy();
  });

  it.each([
    ['POST', '/v1/keys'],
    ['PATCH', '/v1/keys/key-1'],
    ['PUT', '/v1/organizations/org-demo/budget'],
    ['PUT', '/v1/organizations/org-demo/usage-format'],
  ])('management route %s %s authenticates before reading a byte of the body: a declared 50 MB without a management key is 401 at once', async (method, path) => {
    const client = openRaw(gw.baseUrl);
    await client.write(postHead(path, { 'content-type': 'application/json', 'content-length': 50_000_000 }).replace(/^POST /, `${method} `));
    const answer = await client.answer;
    expect([answer?.status, JSON.parse(answer!.body)]).toEqual([401, envelope('missing_api_key')]);
    client.socket.destroy();
  });

  it('a 50 MB JSON body without a valid key is answered 401 once its headers are in, its body never read; /healthz answers meanwhile', async () => {
    const client = openRaw(gw.baseUrl);
    const started = Date.now();
    await client.write(postHead('/v1/chat/completions', { authorization: 'Bearer sk-not-a-key', 'content-type': 'application/json', 'content-length': 50_000_000 }));
    await client.write(`{"model":"aria","messages":[{"role":"user","content":"${'a'.repeat(MiB)}`);
    const answer = await client.answer;
    console.log(`50 MB unauthenticated JSON: ${answer?.status} after ${Date.now() - started} ms, 1 MiB of it sent`);
    expect([answer?.status, JSON.parse(answer!.body)]).toEqual([401, envelope('invalid_api_key')]);
    expect((await fetch(`${gw.baseUrl}/healthz`)).status).toBe(200);
    client.socket.destroy();
  });

  describe('multipart by an allow-list', () => {
    let png: Buffer;
    beforeAll(async () => {
      png = await imageFixture({ format: 'png', width: 64, height: 64 });
    });
    const post = (path: string, form: FormData) => fetch(`${gw.baseUrl}${path}`, { method: 'POST', headers: { authorization: `Bearer ${gw.apiKey}` }, body: form });
    const edit = (extra: (form: FormData) => void) => {
      const form = new FormData();
      form.append('model', 'canvas');
      form.append('prompt', 'Add a hat');
      form.append('image', new Blob([png], { type: 'image/png' }), 'cat.png');
      extra(form);
      return post('/v1/images/edits', form);
    };

    it.each([
      ['a repeated n', (form: FormData) => (form.append('n', '10'), form.append('n', '1')), 'duplicate_parameter', 'n'],
      ['a FILE named model', (form: FormData) => form.append('model', new Blob(['gpt-image-1']), 'model.txt'), 'invalid_parameter_kind', 'model'],
      ['a FILE named n', (form: FormData) => form.append('n', new Blob(['10']), 'n.txt'), 'invalid_parameter_kind', 'n'],
      ['an undocumented field', (form: FormData) => form.append('priority', '-100'), 'unknown_parameter', 'priority'],
      ['an undocumented file', (form: FormData) => form.append('extra', new Blob([Buffer.alloc(1024)]), 'x.bin'), 'unknown_parameter', 'extra'],
      ['a second mask', (form: FormData) => (form.append('mask', new Blob([png]), 'a.png'), form.append('mask', new Blob([png]), 'b.png')), 'duplicate_parameter', 'mask'],
    ])('an image edit with %s is 400, nothing sent upstream', async (_name, pollute, code, param) => {
      const before = upstreamCalls('/v1/images/edits');
      const response = await edit(pollute);
      expect([response.status, await response.json()]).toEqual([400, envelope(code, param)]);
      expect(upstreamCalls('/v1/images/edits')).toBe(before);
    });

    it.each([
      ['a repeated model', (form: FormData) => form.append('model', 'symphony'), 'duplicate_parameter', 'model'],
      ['a second file', (form: FormData) => form.append('file', new Blob([silentWav(1044)]), 'b.wav'), 'duplicate_parameter', 'file'],
      ['an undocumented field', (form: FormData) => form.append('chunking_strategy', 'auto'), 'unknown_parameter', 'chunking_strategy'],
      [`a prompt of ${FIELD_LIMIT + 1} bytes`, (form: FormData) => form.append('prompt', 'p'.repeat(FIELD_LIMIT + 1)), 'field_too_large', 'prompt'],
    ])('a transcription with %s is 400, nothing sent upstream', async (_name, pollute, code, param) => {
      const before = upstreamCalls('/v1/audio/transcriptions');
      const form = new FormData();
      form.append('model', 'rhythm');
      form.append('file', new Blob([silentWav(32_044)], { type: 'audio/wav' }), 'a.wav');
      pollute(form);
      const response = await post('/v1/audio/transcriptions', form);
      expect([response.status, await response.json()]).toEqual([400, envelope(code, param)]);
      expect(upstreamCalls('/v1/audio/transcriptions')).toBe(before);
    });

    it(`takes a text field of exactly ${FIELD_LIMIT} bytes, and repeated timestamp granularities`, async () => {
      const form = new FormData();
      form.append('model', 'rhythm');
      form.append('prompt', 'p'.repeat(FIELD_LIMIT));
      form.append('response_format', 'verbose_json');
      form.append('timestamp_granularities[]', 'word');
      form.append('timestamp_granularities[]', 'segment');
      form.append('file', new Blob([silentWav(32_044)], { type: 'audio/wav' }), 'a.wav');
      expect((await post('/v1/audio/transcriptions', form)).status).toBe(200);
    });

    it('forwards only the validated fields of an edit, the model name rewritten, user dropped', async () => {
      const response = await edit((form) => (form.append('n', '2'), form.append('user', 'end-user-7'), form.append('size', '1024x1024')));
      expect(response.status).toBe(200);
      const received = gw.simulator.control.received((r) => r.path === '/v1/images/edits');
      const { fields, files } = received[received.length - 1].body as { fields: Record<string, string>; files: { field: string }[] };
      expect(fields).toEqual({ model: 'canvas', prompt: 'Add a hat', n: '2', size: '1024x1024' });
      expect(files.map((file) => file.field)).toEqual(['image']);
    });
  });

  describe('image JSON relay forwards priced fields only', () => {
    const generate = (body: Record<string, unknown>) =>
      gw.postJson('/v1/images/generations', { model: 'canvas', prompt: 'A red kite', ...body });

    it.each([
      [{ size: '4096x4096' }, 'unsupported_size', 'size'],
      [{ size: '1025x1024' }, 'unsupported_size', 'size'],
      [{ quality: 'hd' }, 'unknown_parameter', 'quality'],
      [{ priority: -100 }, 'unknown_parameter', 'priority'],
    ])('%j is 400, nothing sent upstream', async (extra, code, param) => {
      const before = upstreamCalls('/v1/images/generations');
      const response = await generate(extra);
      expect([response.status, await response.json()]).toEqual([400, envelope(code, param)]);
      expect(upstreamCalls('/v1/images/generations')).toBe(before);
    });

    it('relays size 1024x1024 (the largest priced) and drops user', async () => {
      const response = await generate({ size: '1024x1024', user: 'end-user-7', n: 1 });
      expect(response.status).toBe(200);
      const received = gw.simulator.control.received((r) => r.path === '/v1/images/generations');
      expect((received[received.length - 1].body as { fields: Record<string, string> }).fields).toEqual({ model: 'canvas', prompt: 'A red kite', n: '1', size: '1024x1024' });
    });
  });

  describe('multipart over the 100 MiB limit is 413', () => {
    const boundary = 'gw-hostile';

    it('declared past the limit: 413 at once, before the caller is even looked at', async () => {
      const client = openRaw(gw.baseUrl);
      const started = Date.now();
      await client.write(postHead('/v1/images/edits', { authorization: `Bearer ${gw.apiKey}`, 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': BODY_LIMIT + 1 }));
      const answer = await client.answer;
      console.log(`multipart declaring ${BODY_LIMIT + 1} bytes: ${answer?.status} after ${Date.now() - started} ms`);
      expect([answer?.status, JSON.parse(answer!.body)]).toEqual([413, envelope('request_too_large')]);
      client.socket.destroy();
    });

    it('chunked, three 40 MiB image parts: 413 once 100 MiB have arrived, nothing sent upstream', async () => {
      const before = upstreamCalls('/v1/images/edits');
      const client = openRaw(gw.baseUrl);
      await client.write(postHead('/v1/images/edits', { authorization: `Bearer ${gw.apiKey}`, 'content-type': `multipart/form-data; boundary=${boundary}`, 'transfer-encoding': 'chunked' }));
      const chunk = (bytes: Buffer) => client.write(Buffer.concat([Buffer.from(`${bytes.length.toString(16)}\r\n`), bytes, Buffer.from('\r\n')]));
      await chunk(Buffer.concat([formPart(boundary, 'model', 'canvas'), formPart(boundary, 'prompt', 'Merge')]));
      const part = formPart(boundary, 'image', Buffer.alloc(40 * MiB, 1), 'big.png');
      let sent = 0;
      for (let i = 0; i < 3 && (await chunk(part)); i++) sent += part.length;
      if (await chunk(formEnd(boundary))) await client.write('0\r\n\r\n');
      const answer = await client.answer;
      console.log(`chunked multipart: ${answer?.status} with ${(sent / MiB).toFixed(0)} MiB written`);
      expect([answer?.status, JSON.parse(answer!.body)]).toEqual([413, envelope('request_too_large')]);
      expect(upstreamCalls('/v1/images/edits')).toBe(before);
      client.socket.destroy();
    });
  });
});

describe('a keyed body that never comes', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    process.env.GATEWAY_BODY_IDLE_TIMEOUT_MS = String(IDLE_MS);
    gw = await startTestGateway();
  });
  afterAll(async () => {
    delete process.env.GATEWAY_BODY_IDLE_TIMEOUT_MS;
    await gw?.close();
  });

  const chat = () => gw.postJson('/v1/chat/completions', { model: 'aria', max_tokens: 5, messages: [{ role: 'user', content: 'Say hi.' }] });
  const envelope = (code: string) => ({ error: { message: expect.any(String), type: expect.any(String), param: null, code } });

  it('a keyed socket declaring 100 MiB and sending nothing holds no budget: other bodies are served, then it gets 408 and is closed', async () => {
    const idle = openRaw(gw.baseUrl);
    const started = Date.now();
    await idle.write(postHead('/v1/chat/completions', { authorization: `Bearer ${gw.apiKey}`, 'content-type': 'application/json', 'content-length': BODY_LIMIT }));
    const others = await Promise.all(Array.from({ length: 5 }, chat));
    expect(others.map((response) => response.status)).toEqual([200, 200, 200, 200, 200]);
    console.log(`5 keyed chat requests served ${Date.now() - started} ms after the idle socket opened (idle deadline ${IDLE_MS} ms)`);
    const answer = await idle.answer;
    await idle.closed;
    console.log(`idle keyed socket: ${answer?.status} and closed after ${Date.now() - started} ms`);
    expect([answer?.status, JSON.parse(answer!.body)]).toEqual([408, envelope('request_timeout')]);
  });
});
