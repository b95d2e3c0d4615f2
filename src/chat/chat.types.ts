// The chat wire shapes the gateway reads. Everything is open-ended: fields it does not read pass
// through to the upstream and back to the client untouched.
import type { MeasuredAudio, MeasuredImage, MeasuredVideo } from '../billing/metering/measurement';
import type { ChatUsage } from './chat-usage';
import type { Usage } from '../billing/usage';

export interface ContentPart {
  type: string;
  [field: string]: unknown;
}

export interface ChatMessage {
  role: string;
  content?: string | ContentPart[] | null;
  [field: string]: unknown;
}

/** The request body as the client sent it (validated), pass-through fields included. */
export interface ChatRequestBody {
  model: string;
  messages: ChatMessage[];
  cache_salt?: string | null;
  stream?: boolean | null;
  stream_options?: { include_usage?: boolean | null; [field: string]: unknown } | null;
  modalities?: string[] | null;
  audio?: { voice?: string | null; format?: string | null } | null;
  [field: string]: unknown;
}

/** OpenAI-style usage as upstreams (OpenAI, vLLM) report it; details may be null or absent. */
export interface UpstreamUsage {
  prompt_tokens?: number;
  completion_tokens?: number;
  total_tokens?: number;
  prompt_tokens_details?: { cached_tokens?: number | null; audio_tokens?: number | null } | null;
  completion_tokens_details?: { reasoning_tokens?: number | null; audio_tokens?: number | null } | null;
}

export interface ToolCall {
  id?: string;
  type?: string;
  index?: number;
  [field: string]: unknown;
}

export interface AssistantMessage {
  role?: string;
  content?: string | null;
  tool_calls?: ToolCall[] | null;
  annotations?: { type?: string; [field: string]: unknown }[] | null;
  audio?: { id?: string; data?: string; expires_at?: number; transcript?: string } | null;
  [field: string]: unknown;
}

export interface ChatChoice {
  index?: number;
  message?: AssistantMessage;
  [field: string]: unknown;
}

/** The upstream's non-streamed answer; the gateway replaces `usage` and relays the rest. */
export interface UpstreamCompletion {
  id?: string;
  model?: string;
  choices?: ChatChoice[];
  usage?: UpstreamUsage | null;
  [field: string]: unknown;
}

/** What the gateway measured of the media a request carried (after any transcoding). */
export interface InputMediaMeasures {
  audio: MeasuredAudio[];
  images: MeasuredImage[];
  videos: MeasuredVideo[];
}

/** One `chat.completion.chunk` of a stream (the upstream's usage-only last chunk has no choices). */
export interface StreamChunk {
  id?: string;
  created?: number;
  model?: string;
  system_fingerprint?: string | null;
  choices?: StreamChoice[];
  usage?: UpstreamUsage | null;
  [field: string]: unknown;
}

export interface StreamChoice {
  index?: number;
  delta?: StreamDelta;
  logprobs?: { content?: unknown[] | null; [field: string]: unknown } | null;
  [field: string]: unknown;
}

export interface StreamDelta {
  content?: string | null;
  reasoning_content?: string | null;
  reasoning?: string | null;
  refusal?: string | null;
  tool_calls?: ToolCall[] | null;
  annotations?: { type?: string; [field: string]: unknown }[] | null;
  audio?: { id?: string; data?: string; transcript?: string; expires_at?: number } | null;
  [field: string]: unknown;
}

/** The answer as the client gets it: the upstream's fields with the gateway's usage (spec ClientChatCompletion). */
export type ClientCompletion = Omit<UpstreamCompletion, 'usage'> & { usage: Usage | ChatUsage; moderation?: unknown };

/** A chunk as the client gets it: usage is null or the gateway's (final chunk only). */
export type ClientChunk = Omit<StreamChunk, 'usage'> & { usage?: Usage | ChatUsage | null; moderation?: unknown };
