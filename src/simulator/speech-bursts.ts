// How the simulated transcriber and diarizer "hear" audio: every stretch of sound between
// silences is one spoken word, and its pitch tells the diarizer who spoke. Deterministic, so
// tests can build audio (tones and gaps) whose words and speakers they know in advance.

export interface Burst {
  /** Seconds, on a 10 ms grid. */
  start: number;
  end: number;
  /** Estimated from zero crossings. */
  frequencyHz: number;
}

const FRAME_SECONDS = 0.01;
/** About -30 dBFS: ffmpeg's default sine (amplitude 1/8) is well above, silence and codec noise below. */
const SOUND_RMS = 1000;
/** Codec ringing can split a tone; shorter gaps than this do not end a word. */
const MAX_GAP_FRAMES = 5;
/** Shorter sounds are clicks, not words. */
const MIN_BURST_FRAMES = 3;

const toSeconds = (frames: number) => Math.round(frames * FRAME_SECONDS * 100) / 100;

function frameIsSound(samples: Int16Array, from: number, to: number): boolean {
  let energy = 0;
  for (let i = from; i < to; i++) energy += samples[i] * samples[i];
  return Math.sqrt(energy / Math.max(1, to - from)) >= SOUND_RMS;
}

function soundFrames(samples: Int16Array, sampleRate: number): boolean[] {
  const frameSamples = Math.round(sampleRate * FRAME_SECONDS);
  const frames: boolean[] = [];
  for (let from = 0; from < samples.length; from += frameSamples) {
    frames.push(frameIsSound(samples, from, Math.min(samples.length, from + frameSamples)));
  }
  return frames;
}

function zeroCrossingFrequency(samples: Int16Array, sampleRate: number, start: number, end: number): number {
  const from = Math.round(start * sampleRate);
  const to = Math.min(samples.length, Math.round(end * sampleRate));
  let crossings = 0;
  for (let i = from + 1; i < to; i++) if ((samples[i - 1] < 0) !== (samples[i] < 0)) crossings++;
  return Math.round(crossings / 2 / Math.max(end - start, FRAME_SECONDS));
}

/** Frame runs of sound, gaps of up to MAX_GAP_FRAMES bridged. */
function soundRuns(frames: boolean[]): [number, number][] {
  const runs: [number, number][] = [];
  for (let i = 0; i < frames.length; i++) {
    if (!frames[i]) continue;
    const last = runs[runs.length - 1];
    if (last && i - last[1] <= MAX_GAP_FRAMES) last[1] = i + 1;
    else runs.push([i, i + 1]);
  }
  return runs.filter(([from, to]) => to - from >= MIN_BURST_FRAMES);
}

export function findBursts(samples: Int16Array, sampleRate: number): Burst[] {
  return soundRuns(soundFrames(samples, sampleRate)).map(([from, to]) => {
    const start = toSeconds(from);
    const end = Math.min(toSeconds(to), samples.length / sampleRate);
    return { start, end, frequencyHz: zeroCrossingFrequency(samples, sampleRate, start, end) };
  });
}
