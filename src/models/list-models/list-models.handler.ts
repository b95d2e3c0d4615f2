import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { CatalogService } from '../../catalog/catalog.service';
import type { ListModelEntry } from '../../catalog/catalog.types';
import { MODEL_STATUS } from '../model-status/model-status.token';
import type { ModelStatusService } from '../model-status/model-status.service';
import { ListModelsQuery } from './list-models.query';
import { AliasListEntry, aliasEntry, aliasStatus } from './alias-entry';

type Listed<T> = T & { status?: 'warm' | 'cold' };

export interface ModelListing {
  object: 'list';
  /** Every model, then every alias (clients send either as `model`). */
  data: (Listed<ListModelEntry> | Listed<AliasListEntry>)[];
}

@QueryHandler(ListModelsQuery)
export class ListModelsHandler implements IQueryHandler<ListModelsQuery, ModelListing> {
  constructor(
    private readonly catalog: CatalogService,
    @Inject(MODEL_STATUS) private readonly status: Pick<ModelStatusService, 'publicStatus'>,
  ) {}

  async execute(): Promise<ModelListing> {
    const data: ModelListing['data'] = this.catalog.all().map((model) => {
      const entry: Listed<ListModelEntry> = CatalogService.publicEntry(model);
      const status = this.status.publicStatus(model.id);
      if (status) entry.status = status;
      return entry;
    });
    for (const alias of this.catalog.allAliases()) {
      const members = this.catalog.membersOf(alias.id);
      const entry: Listed<AliasListEntry> = aliasEntry(alias, members);
      const status = aliasStatus(members.map((member) => this.status.publicStatus(member.id)));
      if (status) entry.status = status;
      data.push(entry);
    }
    return { object: 'list', data };
  }
}
