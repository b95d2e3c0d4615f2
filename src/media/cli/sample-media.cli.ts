// `npm run sample-media [-- DIR]`: writes the files the README's examples upload (clip.wav,
// cat.png) with the ffmpeg bundled by @ffmpeg-installer, so no ffmpeg is needed on PATH.
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ffmpegPath } from '../media-binaries';
import { runProcess } from '../run-process';

/**
 * Four "words" of 0.6 s with 0.4 s pauses, alternating 440 Hz and 880 Hz: the simulated transcriber
 * hears four words and its diarizer two speakers (docs/simulator.md). 16 kHz mono 16-bit PCM WAV.
 */
const CLIP_EXPRESSION = '0.3*sin(2*PI*if(lt(mod(t\\,2)\\,1)\\,440\\,880)*t)*lt(mod(t\\,1)\\,0.6)';

export const SAMPLE_FILES = {
  'clip.wav': ['-f', 'lavfi', '-i', `aevalsrc=${CLIP_EXPRESSION}:s=16000:d=4`, '-ac', '1', '-c:a', 'pcm_s16le', '-f', 'wav'],
  'cat.png': ['-f', 'lavfi', '-i', 'testsrc2=s=256x256:d=1', '-frames:v', '1', '-f', 'image2', '-c:v', 'png'],
} as const;

export async function writeSampleMedia(dir: string): Promise<string[]> {
  mkdirSync(dir, { recursive: true });
  const written: string[] = [];
  for (const [name, args] of Object.entries(SAMPLE_FILES)) {
    const path = join(dir, name);
    const run = await runProcess(ffmpegPath(), ['-hide_banner', '-v', 'error', '-y', ...args, path], { timeoutMs: 60_000 });
    if (run.exitCode !== 0) throw new Error(`ffmpeg could not write ${name}: ${run.stderr}`);
    written.push(path);
  }
  return written;
}

if (require.main === module) {
  // npm runs scripts from the package root; INIT_CWD is where the user typed the command.
  writeSampleMedia(resolve(process.env.INIT_CWD ?? '.', process.argv[2] ?? '.'))
    .then((paths) => process.stdout.write(`${paths.map((path) => `wrote ${path}`).join('\n')}\n`))
    .catch((error: unknown) => {
      process.stderr.write(`${(error as Error).message}\n`);
      process.exit(1);
    });
}
