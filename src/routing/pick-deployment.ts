// Picks the deployment for one attempt (docs/routing.md "Picking"): among the usable ones (warm or not
// yet probed, not ejected, below their `max_concurrency`, not already tried by this request) two are
// drawn at random in proportion to their `weight`, and the one with the lower load score wins:
// (requests in flight + 1) x EWMA of time to first byte. A deployment without a fresh EWMA scores with
// half the fastest fresh one (optimistic), so a new or recovered deployment is tried. One candidate: it.
// Ejected deployments are tried only when no other is left; cold ones never.

export interface Candidate {
  id: string;
  weight: number;
  inFlight: number;
  maxConcurrency: number | null;
  usable: boolean;
  /** Probe status; `cold` ones are never picked, and when all are cold the model is cold. */
  cold: boolean;
  ewmaMs: number | null;
}

export type Pick = { id: string } | { none: 'cold' | 'overloaded' | 'exhausted' };


export function pickDeployment(candidates: readonly Candidate[], tried: ReadonlySet<string>, random: () => number = Math.random): Pick {
  const untried = candidates.filter((c) => !tried.has(c.id));
  if (untried.length === 0) return { none: 'exhausted' };
  // Ejection is a preference: when only ejected deployments are left, one of them is still tried.
  const usable = untried.filter((c) => c.usable);
  const open = usable.length > 0 ? usable : untried.filter((c) => !c.cold);
  if (open.length === 0) return { none: 'cold' };
  const eligible = open.filter((c) => c.maxConcurrency === null || c.inFlight < c.maxConcurrency);
  if (eligible.length === 0) return { none: 'overloaded' };
  if (eligible.length === 1) return { id: eligible[0].id };
  const first = weightedDraw(eligible, random);
  const second = weightedDraw(eligible.filter((c) => c !== first), random);
  const fastest = Math.min(...eligible.map((c) => c.ewmaMs ?? Infinity));
  const fallback = Number.isFinite(fastest) ? fastest / 2 : 1;
  return { id: score(second, fallback) < score(first, fallback) ? second.id : first.id };
}

function score(c: Candidate, fallbackMs: number): number {
  return (c.inFlight + 1) * Math.max(c.ewmaMs ?? fallbackMs, 0.001);
}

function weightedDraw(candidates: readonly Candidate[], random: () => number): Candidate {
  const total = candidates.reduce((sum, c) => sum + c.weight, 0);
  let point = random() * total;
  for (const c of candidates) {
    point -= c.weight;
    if (point < 0) return c;
  }
  return candidates[candidates.length - 1];
}
