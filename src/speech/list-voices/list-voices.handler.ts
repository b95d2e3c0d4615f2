import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { ApiError } from '../../common/api-error';
import { CatalogService } from '../../catalog/catalog.service';
import { voiceList, type VoiceList } from '../domain/voice-list';
import { ListVoicesQuery } from './list-voices.query';

@QueryHandler(ListVoicesQuery)
export class ListVoicesHandler implements IQueryHandler<ListVoicesQuery, VoiceList> {
  constructor(private readonly catalog: CatalogService) {}

  async execute({ model }: ListVoicesQuery): Promise<VoiceList> {
    const members = this.catalog.membersOf(model);
    if (members.length === 0) throw ApiError.notFound('model_not_found', `The model '${model}' does not exist.`, 'model');
    return voiceList(model, members);
  }
}
