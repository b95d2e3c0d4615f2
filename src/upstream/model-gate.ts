// Admission to a model: a cold model answers 503 + Retry-After (and is nudged awake); beyond the
// catalog's concurrency cap excess load is shed with 503 instead of queueing without bound.
import type { CatalogModel } from '../catalog/catalog.types';
import { ApiError } from '../common/api-error';

export interface ModelStatusReader {
  /** `cold` only when a fresh observation says so; unknown status never blocks a request. */
  isCold(modelId: string): boolean;
  /** Asks the upstream to wake (see docs/model-status.md). */
  nudge(model: CatalogModel): void;
}

export class ModelGate {
  private readonly inFlight = new Map<string, number>();

  constructor(private readonly status: ModelStatusReader) {}

  /** Returns the release function; call it exactly once when the upstream work is over. */
  enter(model: CatalogModel): () => void {
    if (this.status.isCold(model.id)) {
      this.status.nudge(model);
      throw ApiError.unavailable('model_cold', `The model '${model.id}' is scaled to zero and starting; retry later.`, model.upstream.cold_start_seconds);
    }
    const current = this.inFlight.get(model.id) ?? 0;
    const cap = model.upstream.max_concurrency;
    if (cap && current >= cap) {
      throw ApiError.unavailable('model_overloaded', `The model '${model.id}' is at its concurrency limit; retry shortly.`, 1);
    }
    this.inFlight.set(model.id, current + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.inFlight.set(model.id, (this.inFlight.get(model.id) ?? 1) - 1);
    };
  }

  inFlightOf(modelId: string): number {
    return this.inFlight.get(modelId) ?? 0;
  }
}
