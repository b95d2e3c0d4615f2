// Counting decoded samples is the one duration measure that works for every codec, including
// streams whose headers say nothing (ADTS, streamed mp3/ogg). Mono 16-bit output makes it 2 bytes a sample.
import { ffmpegPath } from './media-binaries';
import { inputArgs, MediaSource } from './media-source';
import { runProcess } from './run-process';
import type { MediaWork } from './media-work';

export interface DecodeCount {
  samples: number;
  /** ffmpeg's error-level log: empty for a clean decode. */
  errors: string;
  exitCode: number | null;
}

export async function countDecodedSamples(source: MediaSource, timeoutMs: number, work?: MediaWork): Promise<DecodeCount> {
  const args = ['-hide_banner', '-v', 'error', ...inputArgs(source), '-map', '0:a:0', '-ac', '1', '-c:a', 'pcm_s16le', '-f', 's16le', 'pipe:1'];
  const run = await runProcess(ffmpegPath(), args, { stdin: source.stdin, timeoutMs, keepStdout: false, work });
  return { samples: Math.floor(run.stdoutBytes / 2), errors: run.stderr, exitCode: run.exitCode };
}
