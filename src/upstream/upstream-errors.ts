// How an upstream's failure reaches the client (docs/errors.md, "Upstream" rows).
import type { CatalogModel } from '../catalog/catalog.types';
import { ApiError } from '../common/api-error';
import { scrubCredentials } from '../observability/logging/credential-scrub';
import { withoutSecrets } from '../observability/logging/secret-echoes';

/** The most of an upstream's error text relayed to the client. */
export const UPSTREAM_DETAIL_CHARS = 500;

function upstreamMessage(text: string): string | null {
  try {
    const parsed = JSON.parse(text) as { error?: { message?: unknown } | string; detail?: unknown; message?: unknown };
    if (typeof parsed.error === 'string') return parsed.error;
    if (typeof parsed.error?.message === 'string') return parsed.error.message;
    if (typeof parsed.message === 'string') return parsed.message;
    if (typeof parsed.detail === 'string') return parsed.detail;
  } catch {
    /* not JSON: fall through to the raw text */
  }
  return text.trim() ? text.trim() : null;
}

/**
 * The upstream's words as the client may see them: credentials out first, then cut to length, so no
 * cut can leave part of a secret the redaction would have recognized whole.
 */
export function relayableDetail(text: string, model: CatalogModel): string {
  const clean = withoutSecrets(scrubCredentials(text), [model.upstream.api_key, ...(model.deployments ?? []).map((d) => d.api_key)]);
  return clean.length > UPSTREAM_DETAIL_CHARS ? `${clean.slice(0, UPSTREAM_DETAIL_CHARS)}…` : clean;
}

export function upstreamErrorFor(model: CatalogModel, status: number, retryAfter: unknown, text: string): ApiError {
  // An upstream may echo the credentials it was sent (the gateway's key for it) in its error text.
  const echoed = upstreamMessage(text);
  const detail = echoed === null ? null : relayableDetail(echoed, model);
  if (status === 503) {
    const seconds = Number(retryAfter);
    if (Number.isFinite(seconds) && seconds >= 0) {
      return ApiError.unavailable('model_cold', `The model '${model.id}' is starting; retry after ${Math.ceil(seconds)} s.`, Math.max(1, Math.ceil(seconds)));
    }
    return ApiError.unavailable('upstream_unavailable', `The model '${model.id}' is temporarily unavailable.`, 1);
  }
  if (status === 429) {
    return ApiError.unavailable('upstream_capacity', `The model '${model.id}' is at capacity; retry shortly.`, 1);
  }
  if (status >= 400 && status < 500) {
    const code = status === 413 ? 'request_too_large' : 'upstream_rejected_request';
    return new ApiError(status, code, detail ?? `The model '${model.id}' rejected the request.`, 'invalid_request_error');
  }
  return ApiError.upstream('upstream_error', `The model '${model.id}' failed (HTTP ${status})${detail ? `: ${detail}` : ''}.`);
}

export function transportErrorFor(model: CatalogModel, err: unknown): ApiError {
  const code = (err as { code?: string }).code ?? '';
  const name = (err as Error).name;
  if (name === 'AbortError' || code === 'UND_ERR_ABORTED') {
    return new ApiError(499, 'client_closed_request', 'The client closed the request.', 'invalid_request_error');
  }
  if (code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT') {
    return ApiError.upstream('upstream_timeout', `The model '${model.id}' did not answer within ${model.upstream.timeout_ms} ms.`);
  }
  return ApiError.unavailable('upstream_unreachable', `The model '${model.id}' cannot be reached right now.`, 1);
}
