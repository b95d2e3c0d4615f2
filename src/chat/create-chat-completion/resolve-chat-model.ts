// `model` may name a chat model or an alias; an alias routes to its least busy chat member.
import type { CatalogService } from '../../catalog/catalog.service';
import type { CatalogModel } from '../../catalog/catalog.types';
import { ApiError } from '../../common/api-error';

export function resolveChatModel(catalog: CatalogService, id: string, inFlight: (modelId: string) => number): CatalogModel {
  const members = catalog.membersOf(id);
  if (members.length === 0) throw ApiError.notFound('model_not_found', `The model '${id}' does not exist.`, 'model');
  const chatMembers = members.filter((model) => model.kind === 'chat');
  if (chatMembers.length === 0) {
    throw ApiError.badRequest('unsupported_model', `The model '${id}' does not support chat completions.`, 'model');
  }
  return chatMembers.reduce((best, model) => (inFlight(model.id) < inFlight(best.id) ? model : best));
}
