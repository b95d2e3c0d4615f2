// Simulated chat upstream speaking OpenAI's /v1/chat/completions as vLLM serves it, streaming
// included (`stream_options.include_usage` and vLLM's `continuous_usage_stats`). JSON shapes and
// quirks: docs/simulator.md, section "Chat completions".
import type { FastifyReply, FastifyRequest } from 'fastify';
import { applyMode } from './simulator-route';
import type { SimulatorControl } from './simulator-control';
import type { SimulatorRoutes } from './simulator-route';
import { completionBody, SIM_FINGERPRINT, type SimContext, spokenAudio, streamDeltas, usageOf } from './chat/sim-completion';
import { countPrompt, type SimMessage } from './chat/sim-prompt';
import { planReply, type SimChatRequest, type SimReply } from './chat/sim-reply';

/** Quirk `long_answer`: a pause between chunks, like a model generating in real time. */
const SLOW_STREAM_PAUSE_MS = 30;
/** Quirk `stream_error`: the stream breaks with an error event after this many deltas. */
const STREAM_ERROR_AFTER = 3;

export const chatRoutes: SimulatorRoutes = (app, control) => {
  app.post('/v1/chat/completions', async (req: FastifyRequest<{ Body: SimChatRequest }>, reply) => {
    const body = req.body ?? {};
    const model = body.model ?? 'unknown';
    control.record(model, '/v1/chat/completions', body);
    if (await applyMode(control, model, reply)) return;
    if (!Array.isArray(body.messages) || body.messages.length === 0) {
      return reply.code(400).send({ error: { message: "'messages' must be a non-empty array", type: 'BadRequestError', param: 'messages', code: 400 } });
    }
    const mode = control.modeOf(model);
    const quirk = mode.kind === 'quirk' ? mode.name : null;
    const prompt = await countPrompt(body.messages as SimMessage[]);
    const planned = planReply(body, prompt, quirk);
    const ctx: SimContext = { id: `chatcmpl-sim-${req.id}`, created: 1767225600, model, promptTokens: prompt.tokens, choices: body.n ?? 1 };
    const audio = await spokenAudio(body, planned);
    if (!body.stream) return reply.send(completionBody(ctx, body, planned, audio));
    return streamAnswer(reply, { control, ctx, body, planned, audio, quirk });
  });
};

interface StreamPlan {
  control: SimulatorControl;
  ctx: SimContext;
  body: SimChatRequest;
  planned: SimReply;
  audio: Buffer | null;
  quirk: string | null;
}

async function streamAnswer(reply: FastifyReply, plan: StreamPlan): Promise<void> {
  const { ctx, body, planned } = plan;
  const includeUsage = body.stream_options?.include_usage === true;
  const continuous = includeUsage && body.stream_options?.continuous_usage_stats === true;
  reply.hijack();
  reply.raw.on('close', () => {
    if (!reply.raw.writableFinished) plan.control.record(ctx.model, '/v1/chat/completions:closed-by-client');
  });
  reply.raw.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const send = (payload: unknown) => reply.raw.write(`data: ${JSON.stringify(payload)}\n\n`);
  const chunk = (choice: Record<string, unknown>, tokens: number) => ({
    id: ctx.id, object: 'chat.completion.chunk', created: ctx.created, model: ctx.model, system_fingerprint: SIM_FINGERPRINT,
    choices: Array.from({ length: ctx.choices }, (_, index) => ({ index, logprobs: null, finish_reason: null, ...choice })),
    ...(continuous ? { usage: usageOf(ctx, planned, tokens) } : {}),
  });
  const deltas = streamDeltas(body, planned, plan.audio);
  for (const [i, step] of deltas.entries()) {
    if (reply.raw.destroyed) return;
    if (plan.quirk === 'stream_error' && i === STREAM_ERROR_AFTER) {
      send({ error: { message: 'simulated engine failure', type: 'InternalServerError', code: 500 } });
      reply.raw.end();
      return;
    }
    send(chunk({ delta: step.delta, ...(step.logprobs ? { logprobs: step.logprobs } : {}) }, step.tokens));
    if (plan.quirk === 'long_answer') await new Promise((r) => setTimeout(r, SLOW_STREAM_PAUSE_MS));
  }
  send(chunk({ delta: {}, finish_reason: planned.finishReason }, planned.completionTokens));
  if (includeUsage) send({ id: ctx.id, object: 'chat.completion.chunk', created: ctx.created, model: ctx.model, choices: [], usage: usageOf(ctx, planned) });
  reply.raw.end('data: [DONE]\n\n');
}
