// Simulated speech-to-text upstream speaking OpenAI's / vLLM's `/v1/audio/transcriptions`
// (multipart). Words, segments and timings follow from the audio (speech-bursts.ts); JSON shapes
// and quirks: docs/simulator.md, "Transcription".
import type { FastifyReply } from 'fastify';
import ISO6391 from 'iso-639-1';
import { applyMode } from './simulator';
import type { SimulatorControl } from './simulator-control';
import type { SimulatorRoutes } from './simulator.routes';
import { decodeToPcm, LISTEN_SAMPLE_RATE } from './decode-pcm';
import { findBursts } from './speech-bursts';
import { simulatedTranscript, SimTranscript } from './simulated-transcript';
import { lastField, readSimulatorUpload, SimulatorUpload, uploadSummary } from './sim-multipart';

const PATH = '/v1/audio/transcriptions';
const FORMATS = new Set(['json', 'verbose_json', 'text']);

const errorBody = (message: string) => ({ error: { message, type: 'BadRequestError', param: null, code: 400 } });

/** Quirks make the timings unusable in the ways the gateway must catch. */
function applyQuirk(quirk: string | null, words: SimTranscript['words'], duration: number): SimTranscript['words'] | undefined {
  if (quirk === 'no_words') return undefined;
  if (quirk === 'words_backwards') return [...words].reverse();
  if (quirk === 'words_past_end') return words.map((w) => ({ ...w, start: w.start + duration, end: w.end + duration }));
  return words;
}

function verboseBody(upload: SimulatorUpload, transcript: SimTranscript, duration: number, quirk: string | null) {
  const granularities = upload.fields.get('timestamp_granularities[]') ?? [];
  const language = lastField(upload, 'language');
  const words = granularities.includes('word') ? applyQuirk(quirk, transcript.words, duration) : undefined;
  return {
    task: 'transcribe',
    language: (language && ISO6391.getName(language).toLowerCase()) || 'english',
    duration,
    text: transcript.text,
    ...(granularities.length === 0 || granularities.includes('segment') ? { segments: transcript.segments } : {}),
    ...(words ? { words } : {}),
    usage: { type: 'duration', seconds: Math.ceil(duration) },
  };
}

async function transcribe(upload: SimulatorUpload, control: SimulatorControl, model: string, reply: FastifyReply) {
  const format = lastField(upload, 'response_format') ?? 'json';
  if (!FORMATS.has(format)) return reply.code(400).send(errorBody(`unsupported response_format '${format}'`));
  const samples = upload.file && (await decodeToPcm(upload.file.bytes));
  if (!samples) return reply.code(400).send(errorBody("'file' is missing or is not decodable audio"));
  const duration = samples.length / LISTEN_SAMPLE_RATE;
  const transcript = simulatedTranscript(findBursts(samples, LISTEN_SAMPLE_RATE), Number(lastField(upload, 'temperature') ?? 0));
  const mode = control.modeOf(model);
  const quirk = mode.kind === 'quirk' ? mode.name : null;
  if (quirk === 'not_json') return reply.code(200).type('text/plain').send('transcript unavailable');
  if (format === 'text') return reply.type('text/plain; charset=utf-8').send(`${transcript.text}\n`);
  if (format === 'json') return reply.send({ text: transcript.text, usage: { type: 'duration', seconds: Math.ceil(duration) } });
  return reply.send(verboseBody(upload, transcript, duration, quirk));
}

export const transcriptionRoutes: SimulatorRoutes = (app, control) => {
  app.post(PATH, async (req, reply) => {
    const upload = await readSimulatorUpload(req);
    const model = lastField(upload, 'model') ?? 'unknown';
    control.record(model, PATH, uploadSummary(upload));
    if (await applyMode(control, model, reply)) return;
    return transcribe(upload, control, model, reply);
  });
};
