// Audio the simulated speech models "speak": a sine tone whose pitch follows the voice and whose
// length follows the input and speed, so tests can predict exactly what a request must produce.
import { createHash } from 'node:crypto';
import { ffmpegPath } from '../media/media-binaries';
import { runProcess } from '../media/run-process';

export const SIM_SAMPLE_RATE = 24_000;
const BYTES_PER_SAMPLE = 2;
/** Seconds of audio per request plus per input character, at speed 1 (a very fast speaker). */
const BASE_SECONDS = 0.25;
const SECONDS_PER_CHARACTER = 0.0005;

/** Samples the simulator produces for `input` at `speed`; exported so tests can predict durations. */
export function simulatedSamples(input: string, speed = 1): number {
  const characters = [...input].length;
  return Math.round((SIM_SAMPLE_RATE * (BASE_SECONDS + SECONDS_PER_CHARACTER * characters)) / speed);
}

function voicePitchHz(voice: string): number {
  return 180 + (createHash('sha256').update(voice).digest().readUInt16BE(0) % 400);
}

/** Mono 16-bit little-endian PCM samples [from, to) of the tone for `voice`. */
export function tonePcm(voice: string, from: number, to: number): Buffer {
  const pitch = voicePitchHz(voice);
  const pcm = Buffer.alloc((to - from) * BYTES_PER_SAMPLE);
  for (let i = from; i < to; i++) {
    const sample = Math.round(0.3 * 32767 * Math.sin((2 * Math.PI * pitch * i) / SIM_SAMPLE_RATE));
    pcm.writeInt16LE(sample, (i - from) * BYTES_PER_SAMPLE);
  }
  return pcm;
}

/** A 44-byte PCM WAV header; `dataBytes` null writes the 0xFFFFFFFF sizes of a stream of unknown length. */
export function wavHeader(dataBytes: number | null): Buffer {
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'latin1');
  header.writeUInt32LE(dataBytes === null ? 0xffffffff : 36 + dataBytes, 4);
  header.write('WAVEfmt ', 8, 'latin1');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(SIM_SAMPLE_RATE, 24);
  header.writeUInt32LE(SIM_SAMPLE_RATE * BYTES_PER_SAMPLE, 28);
  header.writeUInt16LE(BYTES_PER_SAMPLE, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36, 'latin1');
  header.writeUInt32LE(dataBytes === null ? 0xffffffff : dataBytes, 40);
  return header;
}

const ENCODERS: Record<string, string[]> = {
  mp3: ['-c:a', 'libmp3lame', '-b:a', '64k', '-f', 'mp3'],
  opus: ['-c:a', 'libopus', '-b:a', '32k', '-f', 'ogg'],
  aac: ['-c:a', 'aac', '-b:a', '64k', '-f', 'adts'],
  flac: ['-c:a', 'flac', '-f', 'flac'],
};

export const SIM_CONTENT_TYPES: Record<string, string> = {
  wav: 'audio/wav',
  pcm: 'audio/pcm',
  mp3: 'audio/mpeg',
  opus: 'audio/ogg',
  aac: 'audio/aac',
  flac: 'audio/flac',
};

/** The whole clip in `format`: wav and pcm written directly, the compressed formats by ffmpeg. */
export async function encodeClip(pcm: Buffer, format: string): Promise<Buffer> {
  if (format === 'pcm') return pcm;
  if (format === 'wav') return Buffer.concat([wavHeader(pcm.length), pcm]);
  const input = ['-hide_banner', '-v', 'error', '-f', 's16le', '-ar', String(SIM_SAMPLE_RATE), '-ac', '1', '-i', 'pipe:0'];
  const run = await runProcess(ffmpegPath(), [...input, ...ENCODERS[format], 'pipe:1'], { stdin: pcm, timeoutMs: 60_000 });
  if (run.exitCode !== 0) throw new Error(`simulator could not encode ${format}: ${run.stderr}`);
  return run.stdout;
}
