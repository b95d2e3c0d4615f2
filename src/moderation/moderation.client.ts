// Calls the configured OpenAI-style `/v1/moderations` service over a pooled keep-alive client. It
// never throws: any failure becomes the spec's error object, so moderation cannot fail a request.
import { OnApplicationShutdown } from '@nestjs/common';
import { Agent, request } from 'undici';
import type { ServiceEndpoints } from '../catalog/catalog.types';
import { readBoundedJson } from '../upstream/bounded-body';
import { DEFAULT_UPSTREAM_LIMITS } from '../upstream/upstream-limits';
import { isServiceResponse, moderationError, toModerationResults } from './moderation-shapes';
import type { ModerationInputItem, ModerationOutcome } from './moderation.types';

type ModerationEndpoint = NonNullable<ServiceEndpoints['moderation']>;

const DEFAULT_MODERATION_MODEL = 'omni-moderation-latest';

export class ModerationClient implements OnApplicationShutdown {
  private readonly agent = new Agent({ keepAliveTimeout: 30_000, connections: 64 });

  constructor(private readonly endpoint: ModerationEndpoint | null) {}

  async moderate(input: ModerationInputItem[], signal?: AbortSignal): Promise<ModerationOutcome> {
    if (!this.endpoint) return moderationError('moderation_not_configured', 'No moderation service is configured.');
    if (input.length === 0) return moderationError('nothing_to_moderate', 'There was no text or image to moderate.');
    try {
      return await this.call(this.endpoint, input, signal);
    } catch (error) {
      return transportError(error, this.endpoint.timeout_ms);
    }
  }

  private async call(endpoint: ModerationEndpoint, input: ModerationInputItem[], signal?: AbortSignal): Promise<ModerationOutcome> {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (endpoint.api_key) headers.authorization = `Bearer ${endpoint.api_key}`;
    const response = await request(`${endpoint.base_url.replace(/\/$/, '')}/moderations`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ model: endpoint.model ?? DEFAULT_MODERATION_MODEL, input }),
      signal,
      dispatcher: this.agent,
      headersTimeout: endpoint.timeout_ms,
      bodyTimeout: endpoint.timeout_ms,
    });
    const body = await readBoundedJson(response, 'moderation', DEFAULT_UPSTREAM_LIMITS.maxBodyBytes).catch(() => null);
    if (response.statusCode >= 300) {
      return moderationError('moderation_failed', `The moderation service answered HTTP ${response.statusCode}.`);
    }
    if (!isServiceResponse(body)) return moderationError('moderation_invalid_response', 'The moderation service returned an unreadable answer.');
    return toModerationResults(body);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.agent.close();
  }
}

function transportError(error: unknown, timeoutMs: number): ModerationOutcome {
  const code = (error as { code?: string }).code ?? '';
  if (code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT') {
    return moderationError('moderation_timeout', `The moderation service did not answer within ${timeoutMs} ms.`);
  }
  return moderationError('moderation_unavailable', 'The moderation service cannot be reached.');
}
