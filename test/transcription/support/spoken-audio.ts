// Test audio the simulated transcriber can "hear": tones are words, pitch tells the simulated
// diarizer the speaker (>= 600 Hz SPEAKER_00, lower SPEAKER_01), sounds under 0.2 s get no turn.
import { join } from 'node:path';
import { readFile, writeFile } from 'node:fs/promises';
import { ffmpegPath } from '../../../src/media/media-binaries';
import { withTempDir } from '../../../src/media/media-source';
import { runProcess } from '../../../src/media/run-process';

export interface Span {
  /** null for silence. */
  hz: number | null;
  seconds: number;
}

const SAMPLE_RATE = 16_000;
const AMPLITUDE = 8000;

/** 16-bit mono PCM WAV of the spans, sample-exact. */
export function spokenWav(spans: readonly Span[]): Buffer {
  const samples = spans.flatMap(({ hz, seconds }) =>
    Array.from({ length: Math.round(seconds * SAMPLE_RATE) }, (_, i) => (hz === null ? 0 : Math.round(AMPLITUDE * Math.sin((2 * Math.PI * hz * i) / SAMPLE_RATE)))),
  );
  const data = Buffer.alloc(samples.length * 2);
  samples.forEach((sample, i) => data.writeInt16LE(sample, i * 2));
  const header = Buffer.alloc(44);
  header.write('RIFF', 0);
  header.writeUInt32LE(36 + data.length, 4);
  header.write('WAVEfmt ', 8);
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(SAMPLE_RATE, 24);
  header.writeUInt32LE(SAMPLE_RATE * 2, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36);
  header.writeUInt32LE(data.length, 40);
  return Buffer.concat([header, data]);
}

/**
 * Two speakers, four words, three segments (pauses of 0.6 s split them):
 * alpha 0.2-0.7 (440 Hz), bravo 1.0-1.6 (880 Hz), charlie 2.2-2.3 (too short for a turn),
 * delta 2.9-3.4 (440 Hz); 3.7 s in all.
 */
export const CONVERSATION: Span[] = [
  { hz: null, seconds: 0.2 },
  { hz: 440, seconds: 0.5 },
  { hz: null, seconds: 0.3 },
  { hz: 880, seconds: 0.6 },
  { hz: null, seconds: 0.6 },
  { hz: 440, seconds: 0.1 },
  { hz: null, seconds: 0.6 },
  { hz: 440, seconds: 0.5 },
  { hz: null, seconds: 0.3 },
];

export const CONVERSATION_WORDS = [
  { word: 'alpha', start: 0.2, end: 0.7 },
  { word: 'bravo', start: 1, end: 1.6 },
  { word: 'charlie', start: 2.2, end: 2.3 },
  { word: 'delta', start: 2.9, end: 3.4 },
];

export const CONTAINERS = ['aac', 'aiff', 'flac', 'm4a', 'mp3', 'ogg', 'wav', 'webm'] as const;
export type Container = (typeof CONTAINERS)[number];

const ENCODERS: Record<Exclude<Container, 'wav'>, string[]> = {
  aac: ['-c:a', 'aac', '-f', 'adts'],
  aiff: ['-c:a', 'pcm_s16be', '-f', 'aiff'],
  flac: ['-c:a', 'flac', '-f', 'flac'],
  m4a: ['-c:a', 'aac', '-f', 'ipod'],
  mp3: ['-c:a', 'libmp3lame', '-f', 'mp3'],
  ogg: ['-c:a', 'libvorbis', '-f', 'ogg'],
  webm: ['-c:a', 'libopus', '-f', 'webm'],
};

/** The WAV re-encoded into another container (through files: the mp4 muxer needs to seek). */
export function encodeAs(wav: Buffer, container: Container): Promise<Buffer> {
  return container === 'wav' ? Promise.resolve(wav) : encodeWith(wav, ENCODERS[container]);
}

/** The WAV through ffmpeg with these output options (codec and muxer). */
export function encodeWith(wav: Buffer, outputOptions: string[]): Promise<Buffer> {
  return withTempDir(async (dir) => {
    const input = join(dir, 'in.wav');
    const output = join(dir, 'out');
    await writeFile(input, wav);
    const run = await runProcess(ffmpegPath(), ['-hide_banner', '-v', 'error', '-i', input, ...outputOptions, output], { timeoutMs: 30_000 });
    if (run.exitCode !== 0) throw new Error(`ffmpeg could not encode with ${outputOptions.join(' ')}: ${run.stderr}`);
    return readFile(output);
  });
}
