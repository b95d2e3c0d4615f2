// Simulated text-to-speech upstream speaking vLLM-Omni's `/v1/audio/speech` dialect (OpenAI's
// request plus `language`, `ref_audio`, `ref_text`, `task_type`). JSON shapes: docs/simulator.md.
import { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { applyMode } from './simulator-route';
import type { SimulatorControl } from './simulator-control';
import type { SimulatorRoutes } from './simulator-route';
import { encodeClip, SIM_CONTENT_TYPES, SIM_SAMPLE_RATE, simulatedSamples, tonePcm, wavHeader } from './speech-audio';

export interface SimulatedSpeechRequest {
  model?: string;
  input?: unknown;
  voice?: string | null;
  instructions?: string | null;
  response_format?: string | null;
  speed?: number | null;
  stream_format?: 'audio' | 'sse' | null;
  ref_audio?: string | null;
}

const FORMATS = new Set(Object.keys(SIM_CONTENT_TYPES));
const STREAM_CHUNK_SAMPLES = 2_400;
/** Quirk `slow_stream`: a pause between streamed chunks, like a model generating in real time. */
const SLOW_STREAM_PAUSE_MS = 40;
/** Codec frames per second of audio, reported as output tokens in the SSE done event. */
const CODEC_FRAMES_PER_SECOND = 12.5;
/** A rough text-token count for the SSE usage report; the gateway bills characters, not this. */
const CHARACTERS_PER_TOKEN = 4;

function problemWith(body: SimulatedSpeechRequest): string | null {
  if (typeof body.input !== 'string' || body.input.length === 0) return "'input' must be a non-empty string";
  if (!FORMATS.has(body.response_format ?? 'wav')) return `unsupported response_format '${body.response_format}'`;
  if (body.stream_format && !['pcm', 'wav'].includes(body.response_format ?? 'wav')) {
    return "streaming requires response_format='pcm' or 'wav'";
  }
  if (body.ref_audio != null && !/^data:audio\/[a-z0-9.+-]+;base64,UklGR/i.test(body.ref_audio)) {
    return "'ref_audio' must be a base64 WAV data: URL";
  }
  return null;
}

const errorBody = (message: string) => ({ error: { message, type: 'BadRequestError', param: null, code: 400 } });

export const speechRoutes: SimulatorRoutes = (app, control) => {
  app.post('/v1/audio/speech', async (req: FastifyRequest<{ Body: SimulatedSpeechRequest }>, reply) => {
    const body = req.body ?? {};
    const model = body.model ?? 'unknown';
    control.record(model, '/v1/audio/speech', body);
    if (await applyMode(control, model, reply)) return;
    const problem = problemWith(body);
    if (problem) return reply.code(400).send(errorBody(problem));
    if (control.modeOf(model).kind === 'quirk' && quirkOf(control, model) === 'garbage_audio') {
      return reply.header('content-type', 'audio/mpeg').send(Buffer.from('this is not audio at all'));
    }
    const format = body.response_format ?? 'wav';
    const voice = body.voice ?? body.ref_audio?.slice(-64) ?? body.instructions ?? 'default';
    // `overlong_audio`: 10 s + 1 s a character, twice what billing accepts per character (docs/metering.md).
    const samples = quirkOf(control, model) === 'overlong_audio'
      ? Math.round((SIM_SAMPLE_RATE * (10 + [...(body.input as string)].length)) / (body.speed ?? 1))
      : simulatedSamples(body.input as string, body.speed ?? 1);
    if (body.stream_format) {
      const inputTokens = Math.ceil((body.input as string).length / CHARACTERS_PER_TOKEN);
      return streamSpeech(reply, { control, model, voice, samples, format, sse: body.stream_format === 'sse', inputTokens });
    }
    const clip = await encodeClip(tonePcm(voice, 0, samples), format);
    return reply.header('content-type', SIM_CONTENT_TYPES[format]).send(clip);
  });
};

function quirkOf(control: SimulatorControl, model: string): string | null {
  const mode = control.modeOf(model);
  return mode.kind === 'quirk' ? mode.name : null;
}

interface StreamPlan {
  control: SimulatorControl;
  model: string;
  voice: string;
  samples: number;
  format: string;
  sse: boolean;
  inputTokens: number;
}

function streamSpeech(reply: FastifyReply, plan: StreamPlan) {
  const chunks = audioChunks(plan);
  if (!plan.sse) return reply.header('content-type', SIM_CONTENT_TYPES[plan.format]).send(Readable.from(chunks));
  return reply.header('content-type', 'text/event-stream').header('cache-control', 'no-cache').send(Readable.from(sseEvents(chunks, plan)));
}

async function* audioChunks(plan: StreamPlan): AsyncGenerator<Buffer> {
  const slow = quirkOf(plan.control, plan.model) === 'slow_stream';
  if (plan.format === 'wav') yield wavHeader(null);
  for (let from = 0; from < plan.samples; from += STREAM_CHUNK_SAMPLES) {
    if (slow) await new Promise((resolve) => setTimeout(resolve, SLOW_STREAM_PAUSE_MS));
    yield tonePcm(plan.voice, from, Math.min(plan.samples, from + STREAM_CHUNK_SAMPLES));
  }
}

async function* sseEvents(chunks: AsyncGenerator<Buffer>, plan: StreamPlan): AsyncGenerator<string> {
  for await (const chunk of chunks) {
    yield `data: ${JSON.stringify({ type: 'speech.audio.delta', audio: chunk.toString('base64') })}\n\n`;
  }
  const outputTokens = Math.ceil((plan.samples / SIM_SAMPLE_RATE) * CODEC_FRAMES_PER_SECOND);
  const usage = { input_tokens: plan.inputTokens, output_tokens: outputTokens, total_tokens: plan.inputTokens + outputTokens };
  yield `data: ${JSON.stringify({ type: 'speech.audio.done', usage })}\n\n`;
}
