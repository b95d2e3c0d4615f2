// What a body must look like before any endpoint reads it (issue 26 item 10): JSON endpoints take
// JSON only (415 otherwise, not 422), multipart endpoints multipart only, and JSON nested deeper
// than MAX_JSON_DEPTH is a 400 (it was a 500: class-transformer overflowed its stack). The caller
// is authenticated and admitted before a byte of the body is read (issue 37 item 8), so every
// refused body was admitted first (one RequestAdmitted each), and nothing reaches an upstream or is billed.
import { startTestGateway, TestGateway } from '../support/test-gateway';
import { MAX_JSON_DEPTH } from '../../src/common/json-depth';

const JSON_ENDPOINTS = ['/v1/chat/completions', '/v1/audio/speech', '/v1/decisions', '/v1/images/generations'];
const MULTIPART_ENDPOINTS = ['/v1/audio/transcriptions', '/v1/images/edits', '/v1/images/variations'];

const multipartBody = (): { body: string; contentType: string } => ({
  contentType: 'multipart/form-data; boundary=gw-test',
  body: '--gw-test\r\nContent-Disposition: form-data; name="model"\r\n\r\naria\r\n--gw-test--\r\n',
});

const BODIES: Record<string, () => { body: string; contentType: string }> = {
  'text/plain': () => ({ contentType: 'text/plain', body: '{"model":"aria","messages":[{"role":"user","content":"hi"}]}' }),
  'application/x-www-form-urlencoded': () => ({ contentType: 'application/x-www-form-urlencoded', body: 'model=aria&input=hi' }),
  'multipart/form-data': multipartBody,
  'application/json': () => ({ contentType: 'application/json', body: '{"model":"rhythm"}' }),
};

/** `{"model":…,"messages":…,"context": [[…]]}` nesting `depth` levels in all (the outer object is one). */
const chatNestedTo = (depth: number): string =>
  `{"model":"aria","messages":[{"role":"user","content":"hi"}],"context":${'['.repeat(depth - 1)}${']'.repeat(depth - 1)}}`;

describe('request bodies', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway();
  });
  afterAll(() => gw.close());

  // Per-request streams only: model-status changes and rate-limit leases are not the request's own events.
  const requestEvents = async () => (await gw.events()).filter((event) => event.streamId.startsWith('request-'));

  const post = (path: string, contentType: string, body: string) =>
    fetch(`${gw.baseUrl}${path}`, { method: 'POST', headers: { authorization: `Bearer ${gw.apiKey}`, 'content-type': contentType }, body });

  async function expectRefusal(response: Response, status: number, code: string) {
    expect({ path: response.url, status: response.status }).toEqual({ path: response.url, status });
    expect(await response.json()).toEqual({ error: { message: expect.any(String), type: 'invalid_request_error', param: null, code } });
  }

  describe('415 unsupported_media_type for a body of the wrong type, on every endpoint, nothing but the admission recorded', () => {
    it.each(['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data'])('JSON endpoints refuse %s', async (type) => {
      const before = (await requestEvents()).length;
      for (const path of JSON_ENDPOINTS) {
        const { contentType, body } = BODIES[type]();
        await expectRefusal(await post(path, contentType, body), 415, 'unsupported_media_type');
      }
      const admittedOnly = (await requestEvents()).slice(before).map((event) => event.type);
      expect(admittedOnly).toEqual(JSON_ENDPOINTS.map(() => 'RequestAdmitted'));
      expect(gw.simulator.control.received((r) => r.path !== '/health')).toHaveLength(0);
    });

    it.each(['application/json', 'text/plain', 'application/x-www-form-urlencoded'])('multipart endpoints refuse %s', async (type) => {
      const before = (await requestEvents()).length;
      for (const path of MULTIPART_ENDPOINTS) {
        const { contentType, body } = BODIES[type]();
        await expectRefusal(await post(path, contentType, body), 415, 'unsupported_media_type');
      }
      const admittedOnly = (await requestEvents()).slice(before).map((event) => event.type);
      expect(admittedOnly).toEqual(MULTIPART_ENDPOINTS.map(() => 'RequestAdmitted'));
      expect(gw.simulator.control.received((r) => r.path !== '/health')).toHaveLength(0);
    });
  });

  describe(`JSON nested deeper than ${MAX_JSON_DEPTH} levels`, () => {
    it(`serves and bills a chat request nested exactly ${MAX_JSON_DEPTH} levels`, async () => {
      const response = await post('/v1/chat/completions', 'application/json', chatNestedTo(MAX_JSON_DEPTH));
      expect(response.status).toBe(200);
      const requestId = response.headers.get('x-request-id');
      const billed = (await gw.events('CostPriced')).filter((event) => event.streamId === `request-${requestId}`);
      expect(billed).toHaveLength(1);
    });

    it.each([MAX_JSON_DEPTH + 1, 3_000, 200_000])('refuses %d levels with 400 json_too_deep, admitted but nothing billed', async (depth) => {
      const before = (await requestEvents()).length;
      await expectRefusal(await post('/v1/chat/completions', 'application/json', chatNestedTo(depth)), 400, 'json_too_deep');
      await expectRefusal(await post('/v1/decisions', 'application/json', `{"model":"verdict","input":${'['.repeat(depth)}${']'.repeat(depth)}}`), 400, 'json_too_deep');
      expect((await requestEvents()).slice(before).map((event) => event.type)).toEqual(['RequestAdmitted', 'RequestAdmitted']);
    });
  });
});
