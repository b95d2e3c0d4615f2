// Output audio the gateway relays, measured for billing: WAV and pcm without a process, the
// compressed formats by decoding. Speech formats map: opus is Ogg Opus, aac is ADTS.
import { ApiError } from '../common/api-error';
import { audioFixture, randomBytes, truncated } from '../../test/fixtures/media/generate';
import { measureAudioDuration } from './output-duration';
import { OutputAudioFormat } from './media.types';
import { transcodeAudio } from './transcode';

/** A WAV as a live stream writes it: both sizes 0xFFFFFFFF. */
function asStreamedWav(wav: Buffer): Buffer {
  const streamed = Buffer.from(wav);
  streamed.writeUInt32LE(0xffffffff, 4);
  streamed.writeUInt32LE(0xffffffff, 40);
  return streamed;
}

describe('measureAudioDuration', () => {
  it('reads WAV from its header exactly', async () => {
    expect(await measureAudioDuration(await audioFixture({ kind: 'wav', seconds: 1.5, sampleRate: 24000 }), 'wav')).toBe('1.5');
  });

  it('measures a streamed WAV (0xFFFFFFFF sizes) from the data actually present', async () => {
    const wav = await audioFixture({ kind: 'wav', seconds: 1, sampleRate: 24000 });
    expect(await measureAudioDuration(asStreamedWav(wav), 'wav')).toBe('1');
    expect(await measureAudioDuration(asStreamedWav(wav).subarray(0, 44 + 24000), 'wav')).toBe('0.5');
  });

  it('measures raw pcm from the byte count and layout', async () => {
    const pcm = Buffer.alloc(24000 * 2 * 2);
    expect(await measureAudioDuration(pcm, 'pcm', { sampleRate: 24000, sampleFormat: 'pcm16', channels: 2 })).toBe('1');
    await expect(measureAudioDuration(pcm, 'pcm')).rejects.toThrow(TypeError);
  });

  it.each([
    ['mp3', 'mp3'], ['flac', 'flac'], ['opus', 'ogg-opus'], ['ogg', 'ogg-vorbis'], ['aac', 'aac'],
  ] as const)('decodes %s and counts its samples', async (format, kind) => {
    const seconds = await measureAudioDuration(await audioFixture({ kind, seconds: 2, sampleRate: 24000 }), format as OutputAudioFormat);
    expect(Math.abs(Number(seconds) - 2)).toBeLessThanOrEqual(0.1);
  });

  it('measures lossless FLAC exactly', async () => {
    expect(await measureAudioDuration(await audioFixture({ kind: 'flac', samples: 12345, sampleRate: 24000 }), 'flac')).toBe('0.514375');
  });

  it('measures a non-PCM WAV (mp3 inside RIFF) by decoding', async () => {
    const mp3Wav = await transcodeAudio(await audioFixture({ kind: 'wav', seconds: 1 }), { codec: 'mp3', container: 'wav' });
    expect(Math.abs(Number(await measureAudioDuration(mp3Wav, 'wav')) - 1)).toBeLessThanOrEqual(0.1);
  });

  it('bills what was delivered of a stream cut short', async () => {
    const cut = truncated(await audioFixture({ kind: 'mp3', seconds: 2, sampleRate: 24000 }), 0.5);
    const seconds = Number(await measureAudioDuration(cut, 'mp3'));
    expect(seconds).toBeGreaterThan(0.8);
    expect(seconds).toBeLessThan(1.2);
  });

  it('measures nothing as zero', async () => {
    expect(await measureAudioDuration(Buffer.alloc(0), 'mp3')).toBe('0');
  });

  it('answers 502 when the upstream sent something that is not audio', async () => {
    const failure = measureAudioDuration(randomBytes(4096), 'mp3');
    await expect(failure).rejects.toBeInstanceOf(ApiError);
    await expect(measureAudioDuration(randomBytes(4096), 'mp3')).rejects.toMatchObject({ status: 502, code: 'upstream_audio_invalid' });
  });
});
