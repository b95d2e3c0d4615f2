// Reads the diarization upstream's answer (docs/simulator.md, "Diarization"): speaker turns with
// the diarizer's labels. Anything unusable is a speaker-enrichment failure (502).
import { TIMING_TOLERANCE_SECONDS } from '../timing-check';
import { indexSpeakers, LabelledTurn } from '../speaker-attribution';
import { speakerEnrichmentFailed } from '../transcription-errors';
import type { SpeakerTurn } from '../transcript.types';

const isTime = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);

function readTurn(entry: unknown, index: number, audioSeconds: number): LabelledTurn {
  const turn = (typeof entry === 'object' && entry !== null ? entry : {}) as Record<string, unknown>;
  const { speaker, start, end } = turn;
  if (typeof speaker !== 'string' && typeof speaker !== 'number') {
    throw speakerEnrichmentFailed(`diarization turn ${index} has no speaker label`);
  }
  if (!isTime(start) || !isTime(end) || start < 0 || end < start || end > audioSeconds + TIMING_TOLERANCE_SECONDS) {
    throw speakerEnrichmentFailed(`diarization turn ${index} (${String(start)}-${String(end)} s) does not lie within the ${audioSeconds} s of audio`);
  }
  return { label: String(speaker), start, end };
}

export function readSpeakerTurns(body: unknown, audioSeconds: number): SpeakerTurn[] {
  const segments = (body as { segments?: unknown } | null)?.segments;
  if (!Array.isArray(segments)) throw speakerEnrichmentFailed('the diarization service sent no `segments` list');
  return indexSpeakers(segments.map((entry, index) => readTurn(entry, index, audioSeconds)));
}
