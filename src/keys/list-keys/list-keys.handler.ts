// A page of keys: the configured (bootstrap) keys first, then the runtime keys in issue order. No secrets.
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { SpendReader } from '../../budgets/spend-reader';
import { KeysContext } from '../keys.context';
import { viewOfConfigured, viewOfState, type KeyView } from '../key-view';
import { ListKeysQuery } from './list-keys.query';

export interface KeyPage {
  object: 'list';
  data: KeyView[];
  has_more: boolean;
  /** The offset of the next page; null on the last. */
  next_offset: number | null;
}

@QueryHandler(ListKeysQuery)
export class ListKeysHandler implements IQueryHandler<ListKeysQuery, KeyPage> {
  constructor(
    private readonly keys: KeysContext,
    private readonly spend: SpendReader,
  ) {}

  async execute({ limit, offset }: ListKeysQuery): Promise<KeyPage> {
    const reader = this.spend;
    const now = Date.now();
    const configured = this.keys.config.keys;
    const total = configured.length + this.keys.registry.keyCount;
    const data: KeyView[] = [];
    let index = 0;
    for (const key of configured) {
      if (index >= offset && data.length < limit) data.push(viewOfConfigured(key, reader, now));
      index++;
    }
    for (const key of this.keys.registry.keys()) {
      if (data.length >= limit) break;
      if (index >= offset) data.push(viewOfState(key.state, reader, now));
      index++;
    }
    const end = offset + data.length;
    return { object: 'list', data, has_more: end < total, next_offset: end < total ? end : null };
  }
}
