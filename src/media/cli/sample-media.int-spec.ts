// `npm run sample-media` writes the README's example files with the bundled ffmpeg: a WAV the
// simulator hears as four words by two speakers, and a PNG the image endpoints accept.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { identifyAudio, probeImage } from '..';
import { decodeToPcm, LISTEN_SAMPLE_RATE } from '../../simulator/decode-pcm';
import { findBursts } from '../../simulator/speech-bursts';

jest.setTimeout(120_000);

const ROOT = join(__dirname, '..', '..', '..');
let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'sample-media-'));
  // As a newcomer runs it: through npm, from another directory, with no ffmpeg on PATH.
  const run = spawnSync('npm', ['run', '--silent', '--prefix', ROOT, 'sample-media', '--', 'media'], {
    cwd: dir,
    env: { ...process.env, PATH: `${join(process.execPath, '..')}:/usr/bin:/bin`, INIT_CWD: dir },
    encoding: 'utf8',
  });
  if (run.status !== 0) throw new Error(`sample-media failed: ${run.stderr}`);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it('writes clip.wav: 4 s of 16 kHz mono 16-bit PCM WAV', async () => {
  const probe = await identifyAudio(readFileSync(join(dir, 'media', 'clip.wav')));
  expect(probe).toMatchObject({ container: 'wav', codec: 'pcm_s16le', sampleRate: 16000, channels: 1, durationSeconds: '4' });
});

it('writes a clip the simulated transcriber hears as four words, alternating two pitches', async () => {
  const samples = (await decodeToPcm(readFileSync(join(dir, 'media', 'clip.wav'))))!;
  const bursts = findBursts(samples, LISTEN_SAMPLE_RATE);
  expect(bursts.map((b) => [b.start, b.end])).toEqual([[0, 0.6], [1, 1.6], [2, 2.6], [3, 3.6]]);
  expect(bursts.map((b) => (b.frequencyHz >= 600 ? 'high' : 'low'))).toEqual(['low', 'high', 'low', 'high']);
});

it('writes cat.png: a 256x256 PNG', async () => {
  expect(await probeImage(readFileSync(join(dir, 'media', 'cat.png')))).toMatchObject({ format: 'png', width: 256, height: 256 });
});
