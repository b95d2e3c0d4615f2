// DELETE: revokes for good. Every replica refuses the key once its registry folds ApiKeyRevoked.
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { SpendReader } from '../../budgets/spend-reader';
import { decideRevoke, evolve, type ApiKeyState } from '../domain/api-key';
import { keyStateOf } from '../domain/key-history';
import { apiKeyStream } from '../domain/key-events';
import { decideAndAppend } from '../decide-and-append';
import { configuredKeyIsReadOnly } from '../key-lookup';
import { KeysContext } from '../keys.context';
import { viewOfState, type KeyView } from '../key-view';
import { RevokeKeyCommand } from './revoke-key.command';

@CommandHandler(RevokeKeyCommand)
export class RevokeKeyHandler implements ICommandHandler<RevokeKeyCommand, KeyView> {
  constructor(
    private readonly keys: KeysContext,
    private readonly spend: SpendReader,
  ) {}

  async execute({ keyId, by }: RevokeKeyCommand): Promise<KeyView> {
    if (this.keys.config.keys.some((k) => k.id === keyId)) throw configuredKeyIsReadOnly(keyId);
    const state = await decideAndAppend<ApiKeyState>(this.keys.store, this.keys.projection, apiKeyStream(keyId), (history) => {
      const current = keyStateOf(history);
      const events = decideRevoke(current, { keyId, at: new Date().toISOString(), by });
      return { events, state: events.reduce(evolve, current)! };
    });
    return viewOfState(state, this.spend, Date.now());
  }
}
