// An upstream that echoes the gateway's credential for it in its error text: the client and the
// log see none of it, whole, cut at the 500-character limit, base64-encoded or mid-stream.
import { Writable } from 'node:stream';
import { startTestGateway, TestGateway } from '../support/test-gateway';
import { startEchoingUpstream, EchoingUpstream } from '../support/echoing-upstream';

const SECRET = 'upstream-key-7f3a9c21e0b84d6fa5c3e1d2';

/** Pieces of 6 characters of the secret's random part, wherever they appear. */
function leaks(text: string): string[] {
  const random = SECRET.slice('upstream-key-'.length);
  const found: string[] = [];
  for (let start = 0; start + 6 <= random.length; start++) if (text.includes(random.slice(start, start + 6))) found.push(random.slice(start, start + 6));
  return found;
}

describe('an upstream that echoes its credential', () => {
  let gw: TestGateway;
  let upstream: EchoingUpstream;
  const logLines: string[] = [];

  beforeAll(async () => {
    upstream = await startEchoingUpstream();
    gw = await startTestGateway({
      env: { logLevel: 'info' },
      logStream: new Writable({ write: (chunk: Buffer, _encoding, done) => (logLines.push(chunk.toString()), done()) }),
      configure: (config) => {
        const aria = config.models.find((m) => m.id === 'aria')!;
        delete aria.deployments; // its upstream, as changed here, is then its one deployment
        Object.assign(aria.upstream, { base_url: upstream.baseUrl, health_url: null, api_key: SECRET });
      },
    });
  });
  afterAll(async () => {
    await gw.close();
    await upstream.close();
  });

  const chat = async (instruction: string, stream = false) => {
    const response = await gw.postJson('/v1/chat/completions', { model: 'aria', stream, messages: [{ role: 'user', content: instruction }] });
    return { status: response.status, text: await response.text() };
  };

  it.each([470, 480, 490, 495])('a text/plain 500 with the key after %i characters: 502 without any of it', async (filler) => {
    const { status, text } = await chat(`straddle:${filler}`);
    expect(status).toBe(502);
    expect(JSON.parse(text).error).toMatchObject({ code: 'upstream_error', type: 'upstream_error' });
    expect(leaks(text)).toEqual([]);
  });

  it('a base64 echo of the Authorization header: 502 without it', async () => {
    const { status, text } = await chat('base64');
    expect(status).toBe(502);
    expect(JSON.parse(text).error.message).toContain('[redacted]');
    expect(leaks(text)).toEqual([]);
    expect(text).not.toContain(Buffer.from(SECRET).toString('base64').slice(8, 20));
  });

  it('an error event that echoes it mid-stream: the error frame carries none of it', async () => {
    const { status, text } = await chat('stream:490', true);
    expect(status).toBe(200);
    expect(text).toContain('upstream_stream_failed');
    expect(leaks(text)).toEqual([]);
  });

  it('nothing of it reaches the log', () => {
    expect(logLines.length).toBeGreaterThan(0);
    expect(leaks(logLines.join(''))).toEqual([]);
  });
});
