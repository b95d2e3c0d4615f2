import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { CatalogService } from '../../catalog/catalog.service';
import type { ListModelEntry } from '../../catalog/catalog.types';
import { MODEL_STATUS } from '../model-status/model-status.token';
import type { ModelStatusService } from '../model-status/model-status.service';
import { ListModelsQuery } from './list-models.query';

export interface ModelListing {
  object: 'list';
  data: (ListModelEntry & { status?: 'warm' | 'cold' })[];
}

@QueryHandler(ListModelsQuery)
export class ListModelsHandler implements IQueryHandler<ListModelsQuery, ModelListing> {
  constructor(
    private readonly catalog: CatalogService,
    @Inject(MODEL_STATUS) private readonly status: Pick<ModelStatusService, 'publicStatus'>,
  ) {}

  async execute(): Promise<ModelListing> {
    const data = this.catalog.all().map((model) => {
      const entry: ListModelEntry & { status?: 'warm' | 'cold' } = CatalogService.publicEntry(model);
      const status = this.status.publicStatus(model.id);
      if (status) entry.status = status;
      return entry;
    });
    return { object: 'list', data };
  }
}
