// Simulated speech-to-text upstream speaking OpenAI's / vLLM's `/v1/audio/transcriptions`
// (multipart). Words, segments and timings follow from the audio (speech-bursts.ts); JSON shapes
// and quirks: docs/simulator.md, "Transcription".
import type { FastifyReply } from 'fastify';
import ISO6391 from 'iso-639-1';
import { applyMode } from './simulator-route';
import type { SimulatorControl } from './simulator-control';
import type { SimulatorRoutes } from './simulator-route';
import { decodeToPcm, LISTEN_SAMPLE_RATE } from './decode-pcm';
import { findBursts } from './speech-bursts';
import { simulatedTranscript, SimTranscript } from './simulated-transcript';
import { lastField, readSimulatorUpload, SimulatorUpload, uploadSummary } from './sim-multipart';
import type { Burst } from './speech-bursts';
import { diarizedSegments, wordsWithSpeakers } from './diarizing-transcriber';

const PATH = '/v1/audio/transcriptions';
const FORMATS = new Set(['json', 'verbose_json', 'text', 'diarized_json']);

const errorBody = (message: string) => ({ error: { message, type: 'BadRequestError', param: null, code: 400 } });

/** Quirks make the timings unusable in the ways the gateway must catch. */
function applyQuirk(quirk: string | null, words: SimTranscript['words'], duration: number): SimTranscript['words'] | undefined {
  if (quirk === 'no_words') return undefined;
  if (quirk === 'words_backwards') return [...words].reverse();
  if (quirk === 'words_past_end') return words.map((w) => ({ ...w, start: w.start + duration, end: w.end + duration }));
  return words;
}

const numSpeakersOf = (upload: SimulatorUpload) => Number(lastField(upload, 'num_speakers') ?? 2);

function verboseBody(upload: SimulatorUpload, transcript: SimTranscript, bursts: Burst[], duration: number, quirk: string | null) {
  const granularities = upload.fields.get('timestamp_granularities[]') ?? [];
  const language = lastField(upload, 'language');
  const timed = granularities.includes('word') ? applyQuirk(quirk, transcript.words, duration) : undefined;
  const labelled = timed && lastField(upload, 'speaker_labels') === 'true';
  const words = labelled ? wordsWithSpeakers(timed, bursts, numSpeakersOf(upload)) : timed;
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

/** OpenAI's gpt-4o-transcribe-diarize answer: speaker segments, no word timings. */
function diarizedBody(transcript: SimTranscript, bursts: Burst[], duration: number, numSpeakers: number) {
  const segments = diarizedSegments(transcript.words, bursts, numSpeakers);
  return { task: 'transcribe', duration, text: transcript.text, segments, usage: { type: 'duration', seconds: Math.ceil(duration) } };
}

async function transcribe(upload: SimulatorUpload, control: SimulatorControl, model: string, reply: FastifyReply) {
  const format = lastField(upload, 'response_format') ?? 'json';
  if (!FORMATS.has(format)) return reply.code(400).send(errorBody(`unsupported response_format '${format}'`));
  const samples = upload.file && (await decodeToPcm(upload.file.bytes));
  if (!samples) return reply.code(400).send(errorBody("'file' is missing or is not decodable audio"));
  const duration = samples.length / LISTEN_SAMPLE_RATE;
  const bursts = findBursts(samples, LISTEN_SAMPLE_RATE);
  const transcript = simulatedTranscript(bursts, Number(lastField(upload, 'temperature') ?? 0));
  const mode = control.modeOf(model);
  const quirk = mode.kind === 'quirk' ? mode.name : null;
  if (quirk === 'not_json') return reply.code(200).type('text/plain').send('transcript unavailable');
  if (format === 'text') return reply.type('text/plain; charset=utf-8').send(`${transcript.text}\n`);
  if (format === 'json') return reply.send({ text: transcript.text, usage: { type: 'duration', seconds: Math.ceil(duration) } });
  if (format === 'diarized_json') return reply.send(diarizedBody(transcript, bursts, duration, numSpeakersOf(upload)));
  return reply.send(verboseBody(upload, transcript, bursts, duration, quirk));
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
