// Simulated decision upstream speaking the OpenAI Decisions API (`POST /v1/decisions`) plus the
// gateway's input_audio extension. Quirks make it answer wrongly so the gateway's 502 paths can
// be exercised. JSON shapes and quirks: docs/simulator.md.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { applyMode } from './simulator-route';
import type { SimulatorControl } from './simulator-control';
import type { SimulatorRoutes } from './simulator-route';
import { SimInput, SimQuestion, simulatedAnswer, simulatedInputTokens } from './decision-model';

interface SimDecisionRequest {
  model?: string;
  input?: SimInput;
  questions?: SimQuestion[];
  input_audio?: { data?: string; format?: string };
}

type Answer = Record<string, unknown>;
type Reply = { model: string; answers: Answer[]; usage?: Record<string, unknown> };

/** Each quirk bends a correct reply into one the gateway must refuse (or, for refuse_all, accept). */
const QUIRKS: Record<string, (reply: Reply) => void> = {
  missing_answer: (reply) => void reply.answers.pop(),
  extra_answer: (reply) => void reply.answers.push({ type: 'refusal', name: null }),
  reversed: (reply) => void reply.answers.reverse(),
  renamed: (reply) => reply.answers.forEach((answer) => (answer.name = `renamed-${String(answer.name)}`)),
  wrong_type: (reply) => reply.answers.forEach((answer) => (answer.type = answer.type === 'predicate' ? 'score' : 'predicate')),
  unnormalised: (reply) => reply.answers.forEach((answer) => scaleProbabilities(answer, 1.5)),
  negative: (reply) => reply.answers.forEach((answer) => scaleProbabilities(answer, -1)),
  refuse_all: (reply) => (reply.answers = reply.answers.map((answer) => ({ type: 'refusal', name: answer.name }))),
  no_usage: (reply) => delete reply.usage,
  // A selected value that is none of the options (its distribution stays well-formed).
  foreign_choice: (reply) => reply.answers.forEach((answer) => answer.type === 'choice' && (answer.choice = 'option-0')),
  string_choice: (reply) => reply.answers.forEach((answer) => answer.type === 'choice' && (answer.choice = String(answer.choice))),
};

function scaleProbabilities(answer: Answer, factor: number): void {
  if (typeof answer.probability === 'number') answer.probability *= factor;
  for (const entry of (answer.probabilities as { probability: number }[] | undefined) ?? []) entry.probability *= factor;
}

const errorBody = (message: string) => ({ error: { message, type: 'BadRequestError', param: null, code: 400 } });

export const decisionsRoutes: SimulatorRoutes = (app, control) => {
  app.post('/v1/decisions', async (req: FastifyRequest<{ Body: SimDecisionRequest }>, reply) => {
    const body = req.body ?? {};
    const model = body.model ?? 'unknown';
    control.record(model, '/v1/decisions', body);
    if (await applyMode(control, model, reply)) return;
    if (!Array.isArray(body.questions) || body.input === undefined) return reply.code(400).send(errorBody("'input' and 'questions' are required"));
    const inputTokens = await simulatedInputTokens(body.input, body.questions, body.input_audio);
    const answers = body.questions.map(simulatedAnswer);
    const outputTokens = answers.length;
    const decision: Reply = {
      model,
      answers,
      usage: { input_tokens: inputTokens, input_tokens_details: { cached_tokens: 0 }, output_tokens: outputTokens, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: inputTokens + outputTokens },
    };
    return sendQuirky(reply, quirkOf(control, model), decision);
  });
};

function sendQuirky(reply: FastifyReply, quirk: string | null, decision: Reply) {
  if (quirk === 'not_json') return reply.header('content-type', 'application/json').send('{"answers": [');
  if (quirk === 'non_finite') {
    // JSON has no Infinity; an overflowing literal is how one reaches a JSON parser.
    const text = JSON.stringify(decision).replace(/"probability":[0-9.e-]+/, '"probability":1e999');
    return reply.header('content-type', 'application/json').send(text);
  }
  if (quirk && QUIRKS[quirk]) QUIRKS[quirk](decision);
  return reply.send(decision);
}

function quirkOf(control: SimulatorControl, model: string): string | null {
  const mode = control.modeOf(model);
  return mode.kind === 'quirk' ? mode.name : null;
}
