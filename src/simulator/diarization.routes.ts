// Simulated diarization service (pyannote-style speaker turns) behind the gateway's
// `services.diarization`. Speakers follow from pitch: higher tones are SPEAKER_00, lower ones
// SPEAKER_01. Sounds shorter than a turn's minimum get no turn. JSON: docs/simulator.md, "Diarization".
import { applyMode } from './simulator';
import type { SimulatorRoutes } from './simulator.routes';
import { decodeToPcm, LISTEN_SAMPLE_RATE } from './decode-pcm';
import { Burst, findBursts } from './speech-bursts';
import { lastField, readSimulatorUpload } from './sim-multipart';
import { uploadSummary } from './transcription.routes';

const PATH = '/v1/audio/diarizations';
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

function labelOf(burst: Burst, numSpeakers: number): string {
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

export const diarizationRoutes: SimulatorRoutes = (app, control) => {
  app.post(PATH, async (req, reply) => {
    const upload = await readSimulatorUpload(req);
    control.record(DIARIZATION_SIM_MODEL, PATH, uploadSummary(upload));
    if (await applyMode(control, DIARIZATION_SIM_MODEL, reply)) return;
    const samples = upload.file && (await decodeToPcm(upload.file.bytes));
    if (!samples) return reply.code(400).send({ error: { message: "'file' is missing or is not decodable audio", type: 'BadRequestError' } });
    const duration = samples.length / LISTEN_SAMPLE_RATE;
    const turns = simulatedTurns(findBursts(samples, LISTEN_SAMPLE_RATE), Number(lastField(upload, 'num_speakers') ?? 2));
    const mode = control.modeOf(DIARIZATION_SIM_MODEL);
    const shown = mode.kind === 'quirk' && mode.name === 'turns_past_end' ? turns.map((t) => ({ ...t, end: t.end + duration })) : turns;
    return reply.send({ object: 'diarization', duration, num_speakers: new Set(turns.map((t) => t.speaker)).size, segments: shown });
  });
};
