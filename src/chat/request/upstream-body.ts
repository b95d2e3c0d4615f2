// What the gateway sends upstream: the client's body with every pass-through field intact, plus
// the model's upstream name, the organization-scoped cache salt, the model's defaults and cap,
// the prepared media and, when streaming, a request for usage in every chunk.
import type { CatalogModel } from '../../catalog/catalog.types';
import type { ChatMessage, ChatRequestBody } from '../chat.types';
import { scopedCacheSalt } from './cache-salt';
import { withDefaultParameters } from './generation-parameters';
import { withCompletionCap } from './request-limits';
import { copyWith } from '../../common/copy-with';

export interface UpstreamBodyInput {
  body: ChatRequestBody;
  model: CatalogModel;
  organizationId: string;
  messages: ChatMessage[];
}

/**
 * Streams always carry usage: `include_usage` gives the final usage chunk, vLLM's
 * `continuous_usage_stats` the running totals in every chunk, so a stream cut short is still
 * metered by the upstream's own count (see docs/chat.md). OpenAI's API rejects the vLLM extension.
 */
export const UPSTREAM_STREAM_OPTIONS = { include_usage: true, continuous_usage_stats: true };
const OPENAI_STREAM_OPTIONS = { include_usage: true };

/**
 * Leaves out what the gateway replaces by destructuring, not `delete`, and adds to the copy without
 * spread: either would give every request's body a hidden class of its own (docs/benchmarks-archive.md, finding 18).
 */
export function upstreamChatBody({ body, model, organizationId, messages }: UpstreamBodyInput): Record<string, unknown> {
  const { cache_salt: _clientSalt, stream_options: _clientStreamOptions, ...upstream } = withCompletionCap(withDefaultParameters(body, model), model);
  const openai = model.upstream.dialect === 'openai';
  upstream.model = model.upstream.model ?? model.id;
  upstream.messages = messages;
  upstream[openai ? 'prompt_cache_key' : 'cache_salt'] = scopedCacheSalt(organizationId, body.cache_salt);
  if (body.stream) upstream.stream_options = copyWith(body.stream_options ?? {}, openai ? OPENAI_STREAM_OPTIONS : UPSTREAM_STREAM_OPTIONS);
  return upstream;
}
