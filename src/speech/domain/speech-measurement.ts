// What a speech request is billed on: the characters of `input`, the reference audio a clone was
// conditioned on, the voice work (clone or design) and the duration of the audio produced.
import type { Measurement } from '../../billing/metering/measurement';

export interface SpeechWork {
  input: string;
  /** Characters of the segments actually sent upstream, when a stream ended before all were; default: all of `input`. */
  sentCharacters?: number;
  clone: boolean;
  design: boolean;
  /** Seconds of reference audio as the model received it (after transcoding). */
  referenceSeconds: string | null;
  /** Seconds of audio the model produced (for an abandoned stream: produced until then). */
  outputSeconds: string;
}

/** Characters are Unicode code points, so an emoji or a CJK character counts once. */
export const characterCount = (text: string): number => [...text].length;

export function speechMeasurement(work: SpeechWork): Measurement {
  const reference = work.referenceSeconds === null ? [] : [{ durationSeconds: work.referenceSeconds }];
  return {
    input: {
      textCharacters: work.sentCharacters ?? characterCount(work.input),
      audio: reference,
      voice: { clone: work.clone, design: work.design, referenceSeconds: work.referenceSeconds ?? '0' },
    },
    output: { audio: [{ durationSeconds: work.outputSeconds }] },
  };
}
