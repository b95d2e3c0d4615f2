// The OpenTelemetry GenAI semantic conventions (gen_ai.*) as the gateway fills them, kept pure so the
// mapping is unit-tested without an SDK. Names are copied, not imported: the conventions are still
// "development" status and live only in the semantic-conventions package's incubating entry point.
import type { Usage } from '../../billing/usage';

export type Attributes = Record<string, string | number | boolean>;

export const GEN_AI = {
  operation: 'gen_ai.operation.name',
  provider: 'gen_ai.provider.name',
  requestModel: 'gen_ai.request.model',
  responseModel: 'gen_ai.response.model',
  inputTokens: 'gen_ai.usage.input_tokens',
  outputTokens: 'gen_ai.usage.output_tokens',
  cachedInputTokens: 'gen_ai.usage.cache_read.input_tokens',
  reasoningTokens: 'gen_ai.usage.reasoning.output_tokens',
  timeToFirstChunk: 'gen_ai.response.time_to_first_chunk',
} as const;

/** The gateway's own attributes beside the conventions. */
export const GATEWAY = {
  requestId: 'gateway.request_id',
  correlationId: 'gateway.correlation_id',
  organizationId: 'gateway.organization_id',
  costUsdMicros: 'gateway.cost_usd_micros',
  admitted: 'gateway.admitted',
  endpoint: 'gateway.endpoint',
} as const;

/**
 * The upstream's kind as the catalog declares it (`upstream.dialect`): `openai` is a well-known value
 * of the conventions; a vLLM server (the default dialect) has none, so it is named `vllm`.
 */
export function providerOf(dialect: 'vllm' | 'openai' | undefined): string {
  return dialect === 'openai' ? 'openai' : 'vllm';
}

/** `chat` is a well-known value; the others are the gateway's own (the conventions allow custom values). */
const OPERATIONS: Record<string, string> = {
  '/v1/chat/completions': 'chat',
  '/chat/completions': 'chat',
  '/v1/audio/transcriptions': 'transcription',
  '/audio/transcriptions': 'transcription',
  '/v1/audio/speech': 'speech',
  '/audio/speech': 'speech',
  '/v1/decisions': 'decision',
  '/decisions': 'decision',
};

/** The operation of a gateway route or an upstream path; undefined for routes that call no model. */
export function operationOf(path: string | undefined): string | undefined {
  if (path === undefined) return undefined;
  return OPERATIONS[path] ?? (path.startsWith('/v1/images/') || path.startsWith('/images/') ? 'image' : undefined);
}

/** Request parameters the conventions name, read from a validated request DTO when present. */
const REQUEST_PARAMETERS: [field: string, attribute: string][] = [
  ['max_tokens', 'gen_ai.request.max_tokens'],
  ['max_completion_tokens', 'gen_ai.request.max_tokens'],
  ['temperature', 'gen_ai.request.temperature'],
  ['top_p', 'gen_ai.request.top_p'],
  ['top_k', 'gen_ai.request.top_k'],
  ['frequency_penalty', 'gen_ai.request.frequency_penalty'],
  ['presence_penalty', 'gen_ai.request.presence_penalty'],
  ['seed', 'gen_ai.request.seed'],
  ['n', 'gen_ai.request.choice.count'],
];

export function requestAttributes(dto: object): Attributes {
  const fields = dto as Record<string, unknown>;
  const attributes: Attributes = {};
  if (typeof fields.model === 'string') attributes[GEN_AI.requestModel] = fields.model;
  for (const [field, attribute] of REQUEST_PARAMETERS) {
    if (typeof fields[field] === 'number') attributes[attribute] = fields[field] as number;
  }
  if (typeof fields.stream === 'boolean') attributes['gen_ai.request.stream'] = fields.stream;
  return attributes;
}

/** Token counts of every modality that has them (audio is metered in seconds, which the conventions lack). */
export function usageAttributes(usage: Usage): Attributes {
  const { input, output } = usage;
  const attributes: Attributes = {
    [GEN_AI.inputTokens]: input.text.tokens + input.image.tokens + input.video.tokens,
    [GEN_AI.outputTokens]: output.text.tokens + output.image.tokens + output.video.tokens,
    [GEN_AI.cachedInputTokens]: input.text.cached_tokens,
    [GEN_AI.reasoningTokens]: output.text.reasoning_tokens,
    'gateway.usage.input_audio_seconds': input.audio.duration,
    'gateway.usage.output_audio_seconds': output.audio.duration,
  };
  // USD micros fit 2^53 - 1 (docs/pricing.md) but go as a string: exporters may read integers as floats.
  if (usage.cost_usd_micros !== null) attributes[GATEWAY.costUsdMicros] = String(usage.cost_usd_micros);
  return attributes;
}
