// How much of a model's `max_concurrency` one organization may hold (docs/model-status.md, "Fair
// share"). Without it one organization's slow requests fill every slot and every other
// organization gets 503 for as long as they last. A fixed per-organization cap is chosen over
// fair queueing: the gate sheds instead of queueing, so it cannot take a slot back once given.

/** Used when neither the model (`upstream.organization_share`) nor GATEWAY_ORGANIZATION_SHARE sets one. */
export const DEFAULT_ORGANIZATION_SHARE = 0.5;

/**
 * The most requests one organization may have in flight to a model: `floor(cap * share)`, at least 1.
 * A share of 1 lets one organization take every slot (the old behaviour).
 */
export function organizationSlots(maxConcurrency: number, share: number): number {
  return Math.max(1, Math.floor(maxConcurrency * share));
}

/** GATEWAY_ORGANIZATION_SHARE: a fraction in (0, 1]; anything else stops the start-up. */
export function organizationShareFrom(env: NodeJS.ProcessEnv): number {
  const text = env.GATEWAY_ORGANIZATION_SHARE;
  if (text === undefined || text === '') return DEFAULT_ORGANIZATION_SHARE;
  const share = /^\d*\.?\d+$/.test(text) ? Number(text) : NaN;
  if (!(share > 0 && share <= 1)) {
    throw new Error(`GATEWAY_ORGANIZATION_SHARE must be a fraction above 0 and at most 1; got '${text}'`);
  }
  return share;
}

/** In-flight counts by key (model, or model and organization); a count of 0 is forgotten. */
export class InFlightCounts {
  private readonly counts = new Map<string, number>();

  of(key: string): number {
    return this.counts.get(key) ?? 0;
  }

  add(key: string, delta: 1 | -1): void {
    const next = this.of(key) + delta;
    if (next <= 0) this.counts.delete(key);
    else this.counts.set(key, next);
  }
}
