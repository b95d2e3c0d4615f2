// 32 concurrent maximum-size bodies against a gateway child process (compiled JavaScript, as in the
// pod): the request-body budget (GATEWAY_BODY_BUDGET_BYTES) admits what fits and answers the rest
// 503 server_busy with Retry-After before reading them. Prints the peak RSS (VmHWM) and the status
// counts; every admitted request gets its normal answer and is billed (or refused) as usual. Each
// kind of body has a gateway of its own: VmHWM is a high-water mark, so a second burst in the same
// process would report the first one's peak whenever its own was lower.
import { readBilledRequests } from '../support/billed-requests';
import { compiledGatewayForBlock } from '../support/compiled-gateway-block';
import type { GatewayProcess } from '../support/gateway-process';
import { multipartBody, postLarge, silentWav, type UploadOutcome } from '../support/large-upload';
import { peakRssMiB, rssMiB } from '../support/process-memory';

const KEY = 'sk-memory-bounds-test';
const MiB = 1024 * 1024;
const CONCURRENT = 32;
const POD_LIMIT_MiB = 512;
jest.setTimeout(180_000);

const gatewayForBlock = () => compiledGatewayForBlock(KEY, 'gw-memory-');

async function burst(gateway: GatewayProcess, label: string, send: () => Promise<UploadOutcome>, expectAdmitted: (outcome: UploadOutcome) => void): Promise<void> {
  const pid = gateway.child.pid!;
  const before = rssMiB(pid);
  const outcomes = await Promise.all(Array.from({ length: CONCURRENT }, send));
  const peak = peakRssMiB(pid);
  const statuses = new Map<number, number>();
  for (const outcome of outcomes) statuses.set(outcome.status, (statuses.get(outcome.status) ?? 0) + 1);
  process.stdout.write(`${label}: ${CONCURRENT} concurrent, RSS before ${before} MiB, peak (VmHWM) ${peak} MiB, statuses ${JSON.stringify([...statuses])}\n`);
  const refused = outcomes.filter((outcome) => outcome.status === 503);
  for (const outcome of refused) {
    expect(JSON.parse(outcome.body)).toEqual({ error: { message: expect.stringMatching(/retry/), type: 'service_unavailable', param: null, code: 'server_busy' } });
    expect(outcome.retryAfter).toBe('1');
  }
  const admitted = outcomes.filter((outcome) => outcome.status !== 503);
  expect(admitted.length).toBeGreaterThanOrEqual(1);
  admitted.forEach(expectAdmitted);
  expect(peak).toBeLessThan(POD_LIMIT_MiB);
}

describe('memory stays bounded under 32 concurrent maximum-size chat bodies', () => {
  const { gateway } = gatewayForBlock();

  it('chat: ~95 MiB JSON bodies; the admitted ones get their normal answer (the prompt is over the model limit)', async () => {
    const body = Buffer.from(JSON.stringify({ model: 'aria', messages: [{ role: 'user', content: 'a'.repeat(95 * MiB) }] }));
    await burst(gateway(), 'chat JSON 95 MiB', () => postLarge(`${gateway().url}/v1/chat/completions`, { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' }, body), (outcome) => {
      expect([outcome.status, JSON.parse(outcome.body).error.code]).toEqual([400, 'prompt_too_long']);
    });
  });
});

describe('memory stays bounded under 32 concurrent maximum-size uploads', () => {
  const { gateway, dataDir } = gatewayForBlock();
  const billedIds: string[] = [];

  it('transcription: ~95 MiB multipart WAV uploads; the admitted ones are transcribed and billed', async () => {
    const { contentType, body } = multipartBody({ model: 'rhythm' }, { field: 'file', name: 'long.wav', type: 'audio/wav', bytes: silentWav(95 * MiB) });
    await burst(gateway(), 'transcription multipart 95 MiB', () => postLarge(`${gateway().url}/v1/audio/transcriptions`, { authorization: `Bearer ${KEY}`, 'content-type': contentType }, body), (outcome) => {
      expect(outcome.status).toBe(200);
      expect(JSON.parse(outcome.body)).toHaveProperty('text');
      billedIds.push(outcome.body);
    });
    await gateway().kill();
    const { counts } = await readBilledRequests(dataDir());
    const billed = [...counts.values()].filter((c) => c.usage === 1 && c.cost === 1).length;
    expect(billed).toBe(billedIds.length);
  });
});
