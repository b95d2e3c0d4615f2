// What the simulated chat model answers, decided from the request alone: a caption for a lone
// audio clip, a call of the first tool when tools are offered, URL citations when web search is
// asked for, spoken audio when `modalities` has audio, and otherwise an echo of the user's words.
import { SIM_AUDIO_PLACEHOLDER } from './sim-prompt';
import type { PromptCount } from './sim-prompt';
import { countTokens, tokenPieces, truncateTokens } from './sim-tokens';
import { audioClipTokens } from '../../billing/metering/audio-tokens';
import { SIM_SAMPLE_RATE } from '../speech-audio';

export interface SimChatRequest {
  model?: string;
  messages?: unknown[];
  n?: number;
  max_tokens?: number;
  max_completion_tokens?: number;
  tools?: { type?: string; function?: { name?: string }; custom?: { name?: string } }[];
  tool_choice?: unknown;
  web_search_options?: unknown;
  modalities?: string[];
  audio?: { voice?: string; format?: string };
  logprobs?: boolean;
  top_logprobs?: number;
  stream?: boolean;
  stream_options?: { include_usage?: boolean; continuous_usage_stats?: boolean };
}

export interface SimToolCall {
  id: string;
  type: 'function' | 'custom';
  function?: { name: string; arguments: string };
  custom?: { name: string; input: string };
}

export interface SimReply {
  /** Generated text: the content, or the transcript of spoken audio. */
  text: string;
  toolCall: SimToolCall | null;
  citesWeb: boolean;
  /** Samples of 24 kHz mono audio to speak, when audio output was asked for. */
  audioSamples: number | null;
  finishReason: 'stop' | 'length' | 'tool_calls';
  /** Per choice: text or tool tokens plus audio tokens. */
  completionTokens: number;
  audioTokens: number;
}

/** Seconds of speech per generated token. */
const SECONDS_PER_SPOKEN_TOKEN = 0.1;
/** Quirk `long_answer`: enough tokens for a stream that can be interrupted. */
const LONG_ANSWER_WORDS = 400;

export function planReply(body: SimChatRequest, prompt: PromptCount, quirk: string | null): SimReply {
  const toolCall = plannedToolCall(body, prompt);
  if (toolCall) {
    const payload = toolCall.function?.arguments ?? toolCall.custom?.input ?? '';
    return { text: '', toolCall, citesWeb: false, audioSamples: null, finishReason: 'tool_calls', completionTokens: countTokens(payload), audioTokens: 0 };
  }
  const full = replyText(prompt, quirk);
  const cap = body.max_completion_tokens ?? body.max_tokens;
  const text = cap !== undefined ? truncateTokens(full, cap) : full;
  const finishReason = text.length < full.length ? 'length' : 'stop';
  const textTokens = countTokens(text);
  const spoken = body.modalities?.includes('audio') ? Math.round(SIM_SAMPLE_RATE * SECONDS_PER_SPOKEN_TOKEN * textTokens) : null;
  const audioTokens = spoken === null ? 0 : audioClipTokens(SIM_AUDIO_PLACEHOLDER, String(spoken / SIM_SAMPLE_RATE));
  const citesWeb = body.web_search_options !== undefined && body.web_search_options !== null;
  return { text, toolCall: null, citesWeb, audioSamples: spoken, finishReason, completionTokens: textTokens + audioTokens, audioTokens };
}

function replyText(prompt: PromptCount, quirk: string | null): string {
  if (quirk === 'long_answer') return Array.from({ length: LONG_ANSWER_WORDS }, (_, i) => `word${i}`).join(' ');
  if (prompt.userText.trim() === '' && prompt.audioSeconds.length > 0) {
    return `A ${prompt.audioSeconds.join(' s and a ')} s audio clip: a steady tone.`;
  }
  const echoed = tokenPieces(prompt.userText).slice(0, 12).join('').trim();
  return echoed ? `Simulated answer about: ${echoed}` : 'Simulated answer.';
}

function plannedToolCall(body: SimChatRequest, prompt: PromptCount): SimToolCall | null {
  const tool = body.tools?.[0];
  if (!tool || body.tool_choice === 'none') return null;
  const about = prompt.userText.slice(0, 40);
  if (tool.type === 'custom') {
    return { id: 'call_sim_1', type: 'custom', custom: { name: tool.custom?.name ?? 'tool', input: about } };
  }
  return { id: 'call_sim_1', type: 'function', function: { name: tool.function?.name ?? 'tool', arguments: JSON.stringify({ query: about }) } };
}

export function citationsFor(text: string) {
  return [{ type: 'url_citation', url_citation: { start_index: 0, end_index: text.length, title: 'Simulated source', url: 'https://example.com/simulated-source' } }];
}

export function logprobsFor(pieces: readonly string[], top: number) {
  return pieces.map((token) => {
    const entry = { token, logprob: -0.125, bytes: [...Buffer.from(token, 'utf8')] };
    return { ...entry, top_logprobs: Array.from({ length: top }, () => entry) };
  });
}
