// The simulated answer in OpenAI's wire shapes: one chat.completion, or the chunk sequence of a
// stream (role, one chunk per token, finish, then usage) as vLLM sends it.
import { encodeClip, tonePcm } from '../speech-audio';
import type { SimChatRequest, SimReply } from './sim-reply';
import { citationsFor, logprobsFor } from './sim-reply';
import { tokenPieces } from './sim-tokens';

export interface SimContext {
  id: string;
  created: number;
  model: string;
  promptTokens: number;
  choices: number;
}

const SYSTEM_FINGERPRINT = 'fp_simulator';
const PCM_FORMAT: Record<string, string> = { pcm16: 'pcm' };

export function usageOf(ctx: SimContext, reply: SimReply, completedPerChoice = reply.completionTokens) {
  const completion = completedPerChoice * ctx.choices;
  const details = reply.audioTokens > 0 ? { completion_tokens_details: { audio_tokens: reply.audioTokens * ctx.choices, reasoning_tokens: 0 } } : {};
  return { prompt_tokens: ctx.promptTokens, completion_tokens: completion, total_tokens: ctx.promptTokens + completion, prompt_tokens_details: null, ...details };
}

export async function spokenAudio(body: SimChatRequest, reply: SimReply): Promise<Buffer | null> {
  if (reply.audioSamples === null) return null;
  const format = body.audio?.format ?? 'wav';
  return encodeClip(tonePcm(body.audio?.voice ?? 'alloy', 0, reply.audioSamples), PCM_FORMAT[format] ?? format);
}

export function completionBody(ctx: SimContext, body: SimChatRequest, reply: SimReply, audio: Buffer | null) {
  const message: Record<string, unknown> = { role: 'assistant', content: audio || reply.toolCall ? null : reply.text, refusal: null };
  if (reply.toolCall) message.tool_calls = [reply.toolCall];
  if (reply.citesWeb) message.annotations = citationsFor(reply.text);
  if (audio) message.audio = { id: `audio_${ctx.id}`, data: audio.toString('base64'), expires_at: ctx.created + 3600, transcript: reply.text };
  const logprobs = body.logprobs ? { content: logprobsFor(tokenPieces(reply.text), body.top_logprobs ?? 0), refusal: null } : null;
  const choices = Array.from({ length: ctx.choices }, (_, index) => ({ index, message, logprobs, finish_reason: reply.finishReason }));
  return {
    id: ctx.id, object: 'chat.completion', created: ctx.created, model: ctx.model, choices,
    service_tier: 'default', system_fingerprint: SYSTEM_FINGERPRINT, usage: usageOf(ctx, reply),
  };
}

/** Stream deltas of one choice, with the completion tokens generated once each delta is out. */
export function streamDeltas(body: SimChatRequest, reply: SimReply, audio: Buffer | null): { delta: Record<string, unknown>; tokens: number; logprobs?: unknown }[] {
  const deltas: { delta: Record<string, unknown>; tokens: number; logprobs?: unknown }[] = [{ delta: { role: 'assistant', content: '' }, tokens: 0 }];
  if (reply.toolCall) {
    const { id, type } = reply.toolCall;
    const named = type === 'function' ? { function: { name: reply.toolCall.function!.name, arguments: '' } } : { custom: { name: reply.toolCall.custom!.name, input: '' } };
    deltas.push({ delta: { tool_calls: [{ index: 0, id, type, ...named }] }, tokens: 0 });
    const payload = reply.toolCall.function?.arguments ?? reply.toolCall.custom?.input ?? '';
    tokenPieces(payload).forEach((piece, i) => {
      const part = type === 'function' ? { function: { arguments: piece } } : { custom: { input: piece } };
      deltas.push({ delta: { tool_calls: [{ index: 0, ...part }] }, tokens: i + 1 });
    });
    return deltas;
  }
  const pieces = tokenPieces(reply.text);
  pieces.forEach((piece, i) => {
    const delta = audio ? { audio: { transcript: piece } } : { content: piece };
    const logprobs = body.logprobs ? { content: logprobsFor([piece], body.top_logprobs ?? 0), refusal: null } : undefined;
    deltas.push({ delta, tokens: i + 1, logprobs });
  });
  if (audio) audioPieces(audio).forEach((data, i) => deltas.push({ delta: { audio: { ...(i === 0 ? { id: 'audio_sim' } : {}), data } }, tokens: pieces.length + (i === 0 ? reply.audioTokens : 0) }));
  if (reply.citesWeb) deltas.push({ delta: { annotations: citationsFor(reply.text) }, tokens: pieces.length + (audio ? reply.audioTokens : 0) });
  return deltas;
}

/** 4800-byte pieces (0.1 s of 24 kHz pcm16), each base64-encoded on its own, as OpenAI streams audio. */
function audioPieces(audio: Buffer): string[] {
  const pieces: string[] = [];
  for (let offset = 0; offset < audio.length; offset += 4800) pieces.push(audio.subarray(offset, offset + 4800).toString('base64'));
  return pieces;
}

export const SIM_FINGERPRINT = SYSTEM_FINGERPRINT;
