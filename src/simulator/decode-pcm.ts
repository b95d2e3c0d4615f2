// Decodes any uploaded audio to mono 16 kHz 16-bit samples with the bundled ffmpeg, the way a
// Whisper-style server resamples before listening.
import { ffmpegPath } from '../media/media-binaries';
import { withMediaSource } from '../media/media-source';
import { runProcess } from '../media/run-process';

export const LISTEN_SAMPLE_RATE = 16_000;
const DECODE_TIMEOUT_MS = 30_000;

/** null when ffmpeg cannot decode the bytes (the route answers 400, as a real server would). */
export function decodeToPcm(bytes: Buffer): Promise<Int16Array | null> {
  return withMediaSource(bytes, async (source) => {
    const args = ['-hide_banner', '-v', 'error', '-i', source.input, '-map', '0:a:0', '-ac', '1', '-ar', String(LISTEN_SAMPLE_RATE), '-f', 's16le', 'pipe:1'];
    const run = await runProcess(ffmpegPath(), args, { stdin: source.stdin, timeoutMs: DECODE_TIMEOUT_MS });
    if (run.exitCode !== 0 || run.stdout.length < 2) return null;
    const pcm = Buffer.from(run.stdout);
    return new Int16Array(pcm.buffer, pcm.byteOffset, Math.floor(pcm.length / 2));
  });
}
