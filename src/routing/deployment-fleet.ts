// A model's deployments as the router sees them: health, latency, requests in flight and the retry
// budget, all in memory per replica and fed by what this replica observes. Pure: the time is passed in.
// The model is `warm` while any deployment is, `cold` only when every one is (by probes or its own 503).
import type { DeploymentConfig } from '../catalog/catalog.types';
import { DEFAULT_HEALTH, DeploymentHealth, type HealthParameters, type ProbeStatus } from './deployment-health';
import { DEFAULT_EWMA, LatencyEwma, type EwmaParameters } from './latency-ewma';
import { pickDeployment, type Candidate, type Pick } from './pick-deployment';
import { DEFAULT_RETRY_BUDGET, RetryBudget, type RetryBudgetParameters } from './retry-budget';

export interface RoutingParameters {
  health: HealthParameters;
  ewma: EwmaParameters;
  retryBudget: RetryBudgetParameters;
}

export const DEFAULT_ROUTING: RoutingParameters = { health: DEFAULT_HEALTH, ewma: DEFAULT_EWMA, retryBudget: DEFAULT_RETRY_BUDGET };

export interface DeploymentState {
  config: DeploymentConfig;
  health: DeploymentHealth;
  latency: LatencyEwma;
  inFlight: number;
}

/** A change worth an event: a deployment became warm, cold or ejected. */
export interface StatusChange {
  deploymentId: string;
  status: 'warm' | 'cold' | 'ejected';
  previous: 'warm' | 'cold' | 'ejected' | null;
  reason: string;
}

export class DeploymentFleet {
  readonly budget: RetryBudget;
  private readonly states = new Map<string, DeploymentState>();
  private readonly shown = new Map<string, StatusChange['status']>();

  constructor(deployments: readonly DeploymentConfig[], private readonly params: RoutingParameters = DEFAULT_ROUTING) {
    this.budget = new RetryBudget(params.retryBudget);
    for (const config of deployments) {
      this.states.set(config.id, { config, health: new DeploymentHealth(params.health), latency: new LatencyEwma(params.ewma), inFlight: 0 });
    }
  }

  get size(): number {
    return this.states.size;
  }

  state(id: string): DeploymentState {
    return this.states.get(id)!;
  }

  all(): DeploymentState[] {
    return [...this.states.values()];
  }

  pick(tried: ReadonlySet<string>, now: number, random?: () => number): Pick {
    if (this.states.size === 1) return this.pickOnly(tried, now);
    const candidates: Candidate[] = this.all().map((s) => ({
      id: s.config.id,
      weight: s.config.weight,
      inFlight: s.inFlight,
      maxConcurrency: s.config.max_concurrency ?? null,
      usable: s.health.usable(now),
      cold: s.health.status === 'cold',
      ewmaMs: s.latency.current(now),
    }));
    return pickDeployment(candidates, tried, random);
  }

  /** A model of one deployment (most of them): the same rules as pickDeployment, without building candidates. */
  private pickOnly(tried: ReadonlySet<string>, now: number): Pick {
    const only = this.states.values().next().value as DeploymentState;
    if (tried.has(only.config.id)) return { none: 'exhausted' };
    if (only.health.status === 'cold') return { none: 'cold' };
    const cap = only.config.max_concurrency ?? null;
    return cap !== null && only.inFlight >= cap ? { none: 'overloaded' } : { id: only.config.id };
  }

  /** `unknown` until a deployment was observed; `cold` only when every deployment is cold. */
  modelStatus(): ProbeStatus {
    const statuses = this.all().map((s) => s.health.status);
    if (statuses.some((s) => s === 'warm')) return 'warm';
    return statuses.every((s) => s === 'cold') ? 'cold' : 'unknown';
  }

  probed(id: string, ok: boolean, reason: string, now: number): StatusChange | null {
    this.state(id).health.probed(ok);
    return this.changed(id, reason, now);
  }

  saidCold(id: string, now: number): StatusChange | null {
    this.state(id).health.saidCold();
    return this.changed(id, 'upstream answered 503 with Retry-After', now);
  }

  served(id: string, ttfbMs: number, now: number): StatusChange | null {
    const state = this.state(id);
    state.latency.add(ttfbMs, now);
    state.health.recovered(now);
    state.health.served();
    return this.changed(id, 'upstream answered a request', now);
  }

  /** A failed attempt (connect error, timeout, 5xx): ejects the deployment when the rules allow it. */
  failed(id: string, now: number): StatusChange | null {
    const health = this.state(id).health;
    if (!health.failed() || !this.mayEject(now)) return null;
    const ms = health.eject(now);
    return this.changed(id, `ejected for ${ms} ms after consecutive failed requests`, now);
  }

  /** Never more than half of the model's deployments ejected at once (a model of one is never ejected). */
  private mayEject(now: number): boolean {
    const ejected = this.all().filter((s) => s.health.isEjected(now)).length;
    return ejected + 1 <= Math.floor(this.size / 2);
  }

  /** The status a deployment shows (`ejected` over its probe status); a change is returned once. */
  private changed(id: string, reason: string, now: number): StatusChange | null {
    const health = this.state(id).health;
    const status = health.isEjected(now) ? 'ejected' : health.status;
    if (status === 'unknown') return null;
    const previous = this.shown.get(id) ?? null;
    if (previous === status) return null;
    this.shown.set(id, status);
    return { deploymentId: id, status, previous, reason };
  }
}
