// What hostile bodies cost the gateway's memory (issue 37 items 2 and 8), against a compiled gateway
// child process: three ~33 MiB text fields (was RSS 213 -> 716 MB), a 1 GiB declared multipart with
// tiny file parts (was virtual memory 11.4 -> 31.4 GB), a 50 MB unauthenticated JSON body (was RSS
// +263 MB, 401 after 1.2 s). Prints RSS (VmRSS, peak VmHWM) and address space (VmPeak) around each;
// VmHWM and VmPeak are high-water marks, so each figure is the peak so far, in the order run.
import { compiledGatewayForBlock } from '../support/compiled-gateway-block';
import { postLarge, silentWav } from '../support/large-upload';
import { peakRssMiB, peakVirtualMiB, rssMiB } from '../support/process-memory';
import { formEnd, formPart, openRaw, postHead } from '../support/raw-http';

const KEY = 'sk-hostile-memory-test';
const MiB = 1024 * 1024;
const POD_LIMIT_MiB = 512;
jest.setTimeout(180_000);

describe('memory under hostile bodies', () => {
  const block = compiledGatewayForBlock(KEY, 'gw-hostile-');
  const gateway = { get url() { return block.gateway().url; }, get child() { return block.gateway().child; } };

  const pid = () => gateway.child.pid!;
  function report(label: string, before: { rss: number; virtual: number }, extra = ''): number {
    const peak = peakRssMiB(pid());
    console.log(`${label}: RSS ${before.rss} -> ${rssMiB(pid())} MiB (peak so far ${peak}), address space peak ${before.virtual} -> ${peakVirtualMiB(pid())} MiB${extra}`);
    return peak;
  }
  const snapshot = () => ({ rss: rssMiB(pid()), virtual: peakVirtualMiB(pid()) });

  it('a 50 MB JSON body without a valid key: 401 without the body being read or parsed', async () => {
    const before = snapshot();
    const started = Date.now();
    const outcome = await postLarge(`${gateway.url}/v1/chat/completions`, { authorization: 'Bearer sk-wrong', 'content-type': 'application/json' }, Buffer.alloc(50_000_000, 0x61));
    const peak = report('50 MB unauthenticated JSON', before, `, 401 after ${Date.now() - started} ms`);
    expect([outcome.status, JSON.parse(outcome.body).error.code]).toEqual([401, 'invalid_api_key']);
    expect(peak).toBeLessThan(POD_LIMIT_MiB);
    expect((await fetch(`${gateway.url}/healthz`)).status).toBe(200);
  });

  it('a transcription declaring 1 GiB with 20 tiny file parts is 413 at once; declaring 100 MiB, 400 at the second file, nothing reserved', async () => {
    const boundary = 'gw-tiny';
    const parts = Buffer.concat([formPart(boundary, 'model', 'rhythm'), ...Array.from({ length: 20 }, (_, i) => formPart(boundary, 'file', Buffer.alloc(50, i), `${i}.wav`)), formEnd(boundary)]);
    const before = snapshot();
    const answers: number[] = [];
    for (const declared of [1024 * MiB, 100 * MiB]) {
      const client = openRaw(gateway.url);
      await client.write(postHead('/v1/audio/transcriptions', { authorization: `Bearer ${KEY}`, 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': declared }));
      await client.write(parts);
      const answer = await client.answer;
      answers.push(answer!.status);
      if (declared === 100 * MiB) expect(JSON.parse(answer!.body).error).toMatchObject({ code: 'duplicate_parameter', param: 'file' });
      client.socket.destroy();
    }
    report('declared 1 GiB / 100 MiB with 20 tiny file parts', before);
    expect(answers).toEqual([413, 400]);
    // Each file part used to be allocated at the declared remaining length (100 MiB of address space at least).
    expect(peakVirtualMiB(pid()) - before.virtual).toBeLessThan(100);
  });

  it('three ~33 MiB text fields: 400 field_too_large at the first, RSS bounded', async () => {
    const boundary = 'gw-fields';
    const field = 'p'.repeat(33 * MiB);
    const body = Buffer.concat([formPart(boundary, 'model', 'rhythm'), ...['prompt', 'language', 'temperature'].map((name) => formPart(boundary, name, field)), formPart(boundary, 'file', silentWav(32_044), 'a.wav'), formEnd(boundary)]);
    const before = snapshot();
    const outcome = await postLarge(`${gateway.url}/v1/audio/transcriptions`, { authorization: `Bearer ${KEY}`, 'content-type': `multipart/form-data; boundary=${boundary}` }, body);
    const peak = report(`three 33 MiB text fields (${(body.length / MiB).toFixed(0)} MiB body)`, before);
    expect([outcome.status, JSON.parse(outcome.body).error]).toEqual([400, expect.objectContaining({ code: 'field_too_large', param: 'prompt' })]);
    expect(peak).toBeLessThan(POD_LIMIT_MiB);
    expect((await fetch(`${gateway.url}/healthz`)).status).toBe(200);
  });
});
