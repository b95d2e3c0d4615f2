// Resolves public model ids and aliases to catalog entries; the single source for /v1/models.
import type { CatalogModel, ListModelEntry, ModelAlias, ModelKind, ServiceEndpoints } from './catalog.types';
import type { GatewayConfig } from '../config/gateway-config';
import { ApiError } from '../common/api-error';

export class CatalogService {
  private readonly models = new Map<string, CatalogModel>();
  private readonly aliases = new Map<string, ModelAlias>();

  constructor(private readonly config: GatewayConfig) {
    for (const model of config.models) this.models.set(model.id, model);
    for (const alias of config.aliases) this.aliases.set(alias.id, alias);
  }

  get priceBookVersion(): string {
    return this.config.price_book_version;
  }

  get services(): ServiceEndpoints {
    return this.config.services;
  }

  all(): CatalogModel[] {
    return [...this.models.values()];
  }

  /** The operator's aliases, in configuration order. */
  allAliases(): ModelAlias[] {
    return [...this.aliases.values()];
  }

  find(id: string): CatalogModel | undefined {
    return this.models.get(id);
  }

  /** The models a public id stands for: itself, or an alias's members. Empty when unknown. */
  membersOf(id: string): CatalogModel[] {
    const model = this.models.get(id);
    if (model) return [model];
    const alias = this.aliases.get(id);
    return alias ? alias.members.map((m) => this.models.get(m)!) : [];
  }

  isKnown(id: string): boolean {
    return this.models.has(id) || this.aliases.has(id);
  }

  /** A concrete model by id; unknown ids are 404 `model_not_found`. */
  require(id: string, param = 'model'): CatalogModel {
    const model = this.models.get(id);
    if (!model) throw ApiError.notFound('model_not_found', `The model '${id}' does not exist.`, param);
    return model;
  }

  /** A concrete model of the kind this endpoint serves: unknown -> 404, other kind -> 400. */
  requireKind(id: string, kind: ModelKind, param = 'model'): CatalogModel {
    const model = this.require(id, param);
    if (model.kind !== kind) {
      throw ApiError.badRequest('unsupported_model', `The model '${id}' does not support this endpoint.`, param);
    }
    return model;
  }

  /** The public listing entry: operator-only fields (upstream, kind, voices...) are never served. */
  static publicEntry(model: CatalogModel): ListModelEntry {
    // eslint-disable-next-line @typescript-eslint/no-unused-vars
    const { kind, upstream, deployments, voices, max_images_per_request, ...entry } = model;
    return entry;
  }
}
