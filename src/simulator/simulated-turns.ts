// The simulated diarizer's decisions (pure, so tests can import them without the routes): speakers
// follow pitch, higher tones are SPEAKER_00 and lower ones SPEAKER_01, and sounds shorter than a
// turn's minimum get no turn.
import type { Burst } from './speech-bursts';

/** The key tests use with SimulatorControl.set to make the diarizer fail, stall or misbehave. */
export const DIARIZATION_SIM_MODEL = 'diarization';
/** Like real diarizers, too short a sound is not attributed to anyone. */
export const MIN_TURN_SECONDS = 0.2;
/** Same-speaker turns closer than this merge into one. */
const MERGE_GAP_SECONDS = 0.3;
const HIGH_PITCH_HZ = 600;

export interface SimTurn {
  speaker: string;
  start: number;
  end: number;
}

export function labelOf(burst: Burst, numSpeakers: number): string {
  return numSpeakers === 1 || burst.frequencyHz >= HIGH_PITCH_HZ ? 'SPEAKER_00' : 'SPEAKER_01';
}

export function simulatedTurns(bursts: readonly Burst[], numSpeakers: number): SimTurn[] {
  const turns: SimTurn[] = [];
  for (const burst of bursts.filter((b) => b.end - b.start >= MIN_TURN_SECONDS)) {
    const speaker = labelOf(burst, numSpeakers);
    const last = turns[turns.length - 1];
    if (last && last.speaker === speaker && burst.start - last.end < MERGE_GAP_SECONDS) last.end = burst.end;
    else turns.push({ speaker, start: burst.start, end: burst.end });
  }
  return turns;
}
