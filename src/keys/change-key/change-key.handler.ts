// PATCH: name, disabled, limit, reset, expiry, rate limit. Only what differs is recorded.
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { SpendReader } from '../../budgets/spend-reader';
import { decideChange, evolve, type ApiKeyState } from '../domain/api-key';
import { keyStateOf } from '../domain/key-history';
import { apiKeyStream, type ApiKeyChanges } from '../domain/key-events';
import { decideAndAppend } from '../decide-and-append';
import { configuredKeyIsReadOnly } from '../key-lookup';
import { KeysContext } from '../keys.context';
import { normalizeUsd, viewOfState, type KeyView } from '../key-view';
import { timestampOf } from '../timestamp';
import { ChangeKeyCommand } from './change-key.command';
import type { ChangeKeyRequestDto } from './change-key.request.dto';

export function changesOf(body: ChangeKeyRequestDto): ApiKeyChanges {
  const changes: ApiKeyChanges = {};
  if (body.name !== undefined) changes.name = body.name;
  if (body.expires_at !== undefined) changes.expiresAt = body.expires_at === null ? null : timestampOf(body.expires_at);
  if (body.limit_usd !== undefined) changes.limitUsd = body.limit_usd === null ? null : normalizeUsd(body.limit_usd);
  if (body.limit_reset !== undefined) changes.limitReset = body.limit_reset;
  if (body.rate_limit !== undefined) {
    changes.rateLimit = body.rate_limit === null ? null : { requests: body.rate_limit.requests, window_seconds: body.rate_limit.window_seconds };
  }
  return changes;
}

@CommandHandler(ChangeKeyCommand)
export class ChangeKeyHandler implements ICommandHandler<ChangeKeyCommand, KeyView> {
  constructor(
    private readonly keys: KeysContext,
    private readonly spend: SpendReader,
  ) {}

  async execute({ keyId, body, by }: ChangeKeyCommand): Promise<KeyView> {
    if (this.keys.config.keys.some((k) => k.id === keyId)) throw configuredKeyIsReadOnly(keyId);
    const changes = changesOf(body);
    const state = await decideAndAppend<ApiKeyState>(this.keys.store, this.keys.projection, apiKeyStream(keyId), (history) => {
      const current = keyStateOf(history);
      const events = decideChange(current, { keyId, changes, disabled: body.disabled ?? undefined, at: new Date().toISOString(), by });
      return { events, state: events.reduce(evolve, current)! };
    });
    return viewOfState(state, this.spend, Date.now());
  }
}
