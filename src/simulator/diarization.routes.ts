// Simulated diarization service (pyannote-style speaker turns) behind the gateway's
// `services.diarization`; turns come from simulated-turns.ts. JSON: docs/simulator.md, "Diarization".
import { applyMode } from './simulator-route';
import type { SimulatorRoutes } from './simulator-route';
import { decodeToPcm, LISTEN_SAMPLE_RATE } from './decode-pcm';
import { findBursts } from './speech-bursts';
import { lastField, readSimulatorUpload, uploadSummary } from './sim-multipart';
import { DIARIZATION_SIM_MODEL, simulatedTurns } from './simulated-turns';

const PATH = '/v1/audio/diarizations';

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
