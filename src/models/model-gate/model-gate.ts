// Admission to a model: a cold model answers 503 + Retry-After (and is nudged awake); beyond the
// catalog's concurrency cap excess load is shed with 503 instead of queueing without bound, and
// one organization is shed once it holds its share of the cap (fair-share.ts), so that the others
// are still served while it is busy.
import type { CatalogModel } from '../../catalog/catalog.types';
import { ApiError } from '../../common/api-error';
import { DEFAULT_ORGANIZATION_SHARE, InFlightCounts, organizationSlots } from './fair-share';

export interface ModelStatusReader {
  /** `cold` only when a fresh observation says so; unknown status never blocks a request. */
  isCold(modelId: string): boolean;
  /** Asks the upstream to wake (see docs/model-status.md). */
  nudge(model: CatalogModel): void;
}

export class ModelGate {
  private readonly inFlight = new InFlightCounts();
  private readonly byOrganization = new InFlightCounts();

  /** `defaultShare`: GATEWAY_ORGANIZATION_SHARE, for models without `upstream.organization_share`. */
  constructor(
    private readonly status: ModelStatusReader,
    private readonly defaultShare = DEFAULT_ORGANIZATION_SHARE,
  ) {}

  /** Returns the release function; call it exactly once when the upstream work is over. */
  enter(model: CatalogModel, organizationId: string): () => void {
    if (this.status.isCold(model.id)) {
      this.status.nudge(model);
      throw ApiError.unavailable('model_cold', `The model '${model.id}' is scaled to zero and starting; retry later.`, model.upstream.cold_start_seconds);
    }
    const cap = model.upstream.max_concurrency;
    const orgKey = `${model.id}\n${organizationId}`;
    if (cap && this.inFlight.of(model.id) >= cap) {
      throw ApiError.unavailable('model_overloaded', `The model '${model.id}' is at its concurrency limit; retry shortly.`, 1);
    }
    if (cap && this.byOrganization.of(orgKey) >= organizationSlots(cap, model.upstream.organization_share ?? this.defaultShare)) {
      throw ApiError.unavailable(
        'organization_share_exceeded',
        `Your organization already has its share of the model '${model.id}' in flight; retry when one of its requests finishes.`,
        1,
      );
    }
    this.inFlight.add(model.id, 1);
    this.byOrganization.add(orgKey, 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.inFlight.add(model.id, -1);
      this.byOrganization.add(orgKey, -1);
    };
  }

  inFlightOf(modelId: string): number {
    return this.inFlight.of(modelId);
  }
}
