// A client still uploading when its body is refused as too large must read the 413, not a reset
// (issue 26 item 10): the gateway answers, then reads and discards the rest before closing.
import { request } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { startTestGateway, TestGateway } from '../support/test-gateway';

const MIB = 1024 * 1024;

interface UploadOutcome {
  status?: number;
  body?: string;
  /** The error the client saw before it had read the whole answer, if any. */
  error?: string;
  /** An error while it went on uploading after the answer, if any. */
  laterError?: string;
  sentBytes: number;
}

/** Sends `total` bytes in 1 MiB writes with a pause after each, reading the answer whenever it comes. */
function uploadSlowly(url: string, apiKey: string, total: number, declareLength: boolean): Promise<UploadOutcome> {
  return new Promise((resolve) => {
    const outcome: UploadOutcome = { sentBytes: 0 };
    let answered = false;
    const headers: Record<string, string | number> = { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' };
    if (declareLength) headers['content-length'] = total;
    const req = request(`${url}/v1/chat/completions`, { method: 'POST', headers });
    req.on('response', (res) => {
      outcome.status = res.statusCode;
      let body = '';
      res.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
      res.on('end', () => {
        answered = true;
        outcome.body = body;
        void uploaded.then(() => resolve(outcome));
      });
      res.on('error', (error: NodeJS.ErrnoException) => {
        if (!answered) resolve({ ...outcome, error: error.code ?? error.message });
      });
    });
    req.on('error', (error: NodeJS.ErrnoException) => {
      if (!answered) resolve({ ...outcome, error: error.code ?? error.message });
      else outcome.laterError = error.code ?? error.message;
    });
    const uploaded = (async () => {
      const chunk = Buffer.alloc(MIB, 0x20);
      // Node's client stops by itself (destroys the request) once it has read an answer with `Connection: close`.
      while (outcome.sentBytes < total && !req.destroyed) {
        const ok = req.write(chunk.subarray(0, Math.min(MIB, total - outcome.sentBytes)));
        outcome.sentBytes += Math.min(MIB, total - outcome.sentBytes);
        if (!ok) await new Promise<void>((drained) => req.once('drain', () => drained()));
        await sleep(4);
      }
      if (!req.destroyed) req.end();
    })();
  });
}

describe('a body over the 100 MiB limit, still being uploaded', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway();
  });
  afterAll(() => gw.close());

  it.each([
    ['declared by Content-Length (refused before reading)', true],
    ['sent chunked (refused after 100 MiB)', false],
  ])('the client reads the 413 envelope, not a reset: %s', async (_how, declareLength) => {
    const admittedBefore = (await gw.events('RequestAdmitted')).length;
    const outcome = await uploadSlowly(gw.baseUrl, gw.apiKey, 110 * MIB, declareLength);
    console.log(
      `110 MiB upload, ${_how}: status ${outcome.status}, client error before the answer: ${outcome.error ?? 'none'}, ` +
        `after it: ${outcome.laterError ?? 'none'}; ${(outcome.sentBytes / MIB).toFixed(0)} MiB sent`,
    );
    expect(outcome.error).toBeUndefined();
    expect(outcome.laterError).toBeUndefined();
    expect(outcome.status).toBe(413);
    expect(JSON.parse(outcome.body!)).toEqual({
      error: { message: expect.any(String), type: 'invalid_request_error', param: null, code: 'request_too_large' },
    });
    // A declared length over the limit is refused before anything else; a chunked body only once it is
    // counted past the limit, after its caller was authenticated and admitted (before the body is read).
    expect(await gw.events('RequestAdmitted')).toHaveLength(admittedBefore + (declareLength ? 0 : 1));
  }, 60_000);
});
