import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { SpendReader } from '../../budgets/spend-reader';
import { findKey } from '../key-lookup';
import { KeysContext } from '../keys.context';
import { viewOfConfigured, viewOfState, type KeyView } from '../key-view';
import { GetKeyQuery } from './get-key.query';

/** One key by id (also serves GET /v1/key, for the calling model key's own id). */
@QueryHandler(GetKeyQuery)
export class GetKeyHandler implements IQueryHandler<GetKeyQuery, KeyView> {
  constructor(
    private readonly keys: KeysContext,
    private readonly spend: SpendReader,
  ) {}

  async execute({ keyId }: GetKeyQuery): Promise<KeyView> {
    const found = findKey(this.keys.config, this.keys.registry, keyId);
    const reader = this.spend;
    return found.source === 'configuration' ? viewOfConfigured(found.key, reader, Date.now()) : viewOfState(found.key.state, reader, Date.now());
  }
}
