// Per-request limits of a chat model: its expiration date, the completion cap (the tighter of
// per_request_limits.completion_tokens and top_provider.max_completion_tokens), the prompt cap and
// the context window. Prompt sizes are the gateway's estimate (see prompt-estimate.ts).
import type { CatalogModel } from '../../catalog/catalog.types';
import { ApiError } from '../../common/api-error';
import { copyWith } from '../../common/copy-with';

/** A model is served through its expiration_date (UTC) and refused from the next day on: 410. */
export function rejectExpiredModel(model: CatalogModel, now: Date): void {
  const expiration = model.expiration_date;
  if (!expiration) return;
  const today = now.toISOString().slice(0, 10);
  if (today > expiration) {
    throw new ApiError(410, 'model_expired', `The model '${model.id}' expired on ${expiration} and is no longer served.`, 'invalid_request_error', 'model');
  }
}

export function completionLimit(model: CatalogModel): number | null {
  const limits = [model.per_request_limits?.completion_tokens, model.top_provider.max_completion_tokens]
    .filter((limit): limit is number => typeof limit === 'number');
  return limits.length > 0 ? Math.min(...limits) : null;
}

/** The completion cap the client asked for (`max_completion_tokens` wins over the legacy `max_tokens`). */
export function requestedCompletionTokens(body: Record<string, unknown>): { param: string; value: number } | null {
  for (const param of ['max_completion_tokens', 'max_tokens']) {
    const value = body[param];
    if (typeof value === 'number') return { param, value };
  }
  return null;
}

export function rejectCompletionOverLimit(body: Record<string, unknown>, model: CatalogModel): void {
  const limit = completionLimit(model);
  const requested = requestedCompletionTokens(body);
  if (limit !== null && requested && requested.value > limit) {
    throw ApiError.badRequest(
      'completion_tokens_exceeded',
      `'${requested.param}' is ${requested.value}, but the model '${model.id}' generates at most ${limit} tokens per request.`,
      requested.param,
    );
  }
}

/** Without a client cap the upstream could run to the end of the context: the model's cap is sent instead. */
export function withCompletionCap(body: Record<string, unknown>, model: CatalogModel): Record<string, unknown> {
  const limit = completionLimit(model);
  if (limit === null || requestedCompletionTokens(body)) return body;
  return copyWith(body, { max_tokens: limit });
}

export function rejectPromptOverLimits(estimatedPromptTokens: number, body: Record<string, unknown>, model: CatalogModel): void {
  const promptLimit = model.per_request_limits?.prompt_tokens;
  if (promptLimit !== undefined && estimatedPromptTokens > promptLimit) {
    throw ApiError.badRequest(
      'prompt_too_long',
      `The prompt is about ${estimatedPromptTokens} tokens, over the ${promptLimit}-token prompt limit of the model '${model.id}'.`,
      'messages',
    );
  }
  const context = model.top_provider.context_length ?? model.context_length;
  const completion = requestedCompletionTokens(body)?.value ?? 0;
  if (context && estimatedPromptTokens + completion > context) {
    throw ApiError.badRequest(
      'context_length_exceeded',
      `The prompt (about ${estimatedPromptTokens} tokens) plus ${completion} completion tokens exceeds the ${context}-token context of the model '${model.id}'.`,
      'messages',
    );
  }
}
