// The picture the simulated image model "generates": a small solid PNG made once by the bundled
// ffmpeg with bit-exact flags, so b64_json replies are real, decodable and always the same.
import { ffmpegPath } from '../media';
import { runProcess } from '../media/run-process';

const ARGS = ['-hide_banner', '-v', 'error', '-f', 'lavfi', '-i', 'color=c=0x3366cc:s=32x32', '-frames:v', '1', '-fflags', '+bitexact', '-flags', '+bitexact', '-c:v', 'png', '-f', 'image2pipe', 'pipe:1'];

let png: Promise<Buffer> | null = null;

export function simulatedPng(): Promise<Buffer> {
  png ??= runProcess(ffmpegPath(), ARGS, { timeoutMs: 30_000 }).then((run) => {
    if (run.exitCode !== 0) throw new Error(`ffmpeg could not make the simulated PNG: ${run.stderr}`);
    return run.stdout;
  });
  return png;
}
