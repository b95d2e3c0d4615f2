// Routes each upstream call of a model to one of its deployments and fails over before the first byte
// (docs/routing.md): an attempt that fails before its response head (connect error, timeout, 5xx, 429,
// 503/cold) is retried on another deployment while the retry budget, the request's time (the model's
// longest deployment timeout since the first attempt) and replayable bodies allow. Returning the 2xx
// head ends routing: what follows reaches the client and is never retried.
import type { Dispatcher } from 'undici';
import { Readable } from 'node:stream';
import type { CatalogModel, DeploymentConfig } from '../catalog/catalog.types';
import { ApiError } from '../common/api-error';
import { deploymentsOf } from './catalog-deployments';
import { DeploymentFleet, DEFAULT_ROUTING, type RoutingParameters, type StatusChange } from './deployment-fleet';
import { AttemptFailed, isDeploymentFault, isRetryable, outcomeOf } from './attempt-outcome';
import { AttemptLog } from './attempt-log';
import type { AttemptOutcome } from './routing.events';

/** Who the call is for, when it is a client's request (its attempts are recorded). */
export interface RoutedCaller {
  requestId: string;
  caller: { organizationId: string };
}

/** What the router tells the rest of the gateway (model status, events, metrics). */
export interface RoutingListener {
  deploymentChanged?(model: CatalogModel, change: StatusChange): void;
  modelCold?(model: CatalogModel): void;
  modelAnswered?(model: CatalogModel): void;
  /** `seconds`: time to the response head or to the failure. */
  attempted?(model: CatalogModel, deploymentId: string, outcome: AttemptOutcome, seconds: number): void;
  /** A failed attempt is retried on another deployment (the retry budget granted it). */
  retried?(model: CatalogModel): void;
  /** A request's attempts when it failed on every one (the served ones go with the charge). */
  failedRequest?(requestId: string): void;
}

export type AttemptFn = (deployment: DeploymentConfig) => Promise<Dispatcher.ResponseData>;

export class Router {
  readonly attempts = new AttemptLog();
  private readonly fleets = new Map<string, DeploymentFleet>();
  private listeners: RoutingListener[] = [];

  constructor(private readonly params: RoutingParameters = DEFAULT_ROUTING, private readonly random: () => number = Math.random) {}

  listen(listener: RoutingListener): void {
    this.listeners.push(listener);
  }

  fleetOf(model: CatalogModel): DeploymentFleet {
    let fleet = this.fleets.get(model.id);
    if (!fleet) this.fleets.set(model.id, (fleet = new DeploymentFleet(deploymentsOf(model), this.params)));
    return fleet;
  }

  /** A probe's answer for one deployment; the model's status follows the fleet's. */
  probed(model: CatalogModel, deploymentId: string, ok: boolean, reason: string): void {
    const change = this.fleetOf(model).probed(deploymentId, ok, reason, Date.now());
    if (change) this.emit((l) => l.deploymentChanged?.(model, change));
  }

  /** The deployment's own probe answered 503 + Retry-After: it is starting, cold now. */
  saidCold(model: CatalogModel, deploymentId: string): void {
    const change = this.fleetOf(model).saidCold(deploymentId, Date.now());
    if (change) this.emit((l) => l.deploymentChanged?.(model, change));
  }

  async route(model: CatalogModel, body: { replayable: boolean; signal?: AbortSignal }, who: RoutedCaller | undefined, attempt: AttemptFn): Promise<Dispatcher.ResponseData> {
    const fleet = this.fleetOf(model);
    const startedAt = Date.now();
    fleet.budget.requestStarted(startedAt);
    const tried = new Set<string>();
    let lastFailure: AttemptFailed | null = null;
    for (;;) {
      const pick = fleet.pick(tried, Date.now(), this.random);
      if ('none' in pick) throw this.noDeployment(model, pick.none, lastFailure, who);
      // A retry takes from the budget only when there is a deployment to retry on.
      if (lastFailure !== null) {
        if (!fleet.budget.tryRetry(Date.now())) throw this.finalFailure(lastFailure, who);
        this.emit((l) => l.retried?.(model));
      }
      tried.add(pick.id);
      const state = fleet.state(pick.id);
      state.inFlight += 1;
      const began = performance.now();
      try {
        const response = await attempt(state.config);
        this.served(model, state.config, response, performance.now() - began, who);
        response.body.once('close', () => (state.inFlight -= 1));
        return response;
      } catch (error) {
        state.inFlight -= 1;
        if (!(error instanceof AttemptFailed)) throw error;
        lastFailure = error;
        const retryable = this.failed(model, state.config, error, performance.now() - began, who);
        const mayRetry = retryable && body.replayable && !body.signal?.aborted && Date.now() - startedAt < model.upstream.timeout_ms;
        if (!mayRetry) throw this.finalFailure(error, who);
      }
    }
  }

  private served(model: CatalogModel, deployment: DeploymentConfig, response: Dispatcher.ResponseData, ms: number, who: RoutedCaller | undefined): void {
    const now = Date.now();
    const change = this.fleetOf(model).served(deployment.id, ms, now);
    if (change) this.emit((l) => l.deploymentChanged?.(model, change));
    this.emit((l) => l.modelAnswered?.(model));
    this.emit((l) => l.attempted?.(model, deployment.id, 'served', ms / 1000));
    if (who) this.attempts.add(who.requestId, who.caller.organizationId, model.id, { deployment, outcome: 'served', status: response.statusCode, timeToFirstByteMs: Math.round(ms), occurredAt: new Date(now).toISOString() }, now);
  }

  /** Records the failure and feeds health; true when the failure is one another deployment may not share. */
  private failed(model: CatalogModel, deployment: DeploymentConfig, failure: AttemptFailed, ms: number, who: RoutedCaller | undefined): boolean {
    const now = Date.now();
    const outcome = outcomeOf(failure);
    const fleet = this.fleetOf(model);
    const change = outcome === 'cold' ? fleet.saidCold(deployment.id, now) : isDeploymentFault(outcome) ? fleet.failed(deployment.id, now) : null;
    if (change) this.emit((l) => l.deploymentChanged?.(model, change));
    if (outcome === 'cold' && fleet.modelStatus() === 'cold') this.emit((l) => l.modelCold?.(model));
    const retryable = isRetryable(outcome);
    this.emit((l) => l.attempted?.(model, deployment.id, outcome, ms / 1000));
    const timeToFirstByteMs = failure.status === null ? null : Math.round(ms);
    if (who) this.attempts.add(who.requestId, who.caller.organizationId, model.id, { deployment, outcome, status: failure.status, timeToFirstByteMs, occurredAt: new Date(now).toISOString() }, now);
    return retryable;
  }

  private finalFailure(failure: AttemptFailed, who: RoutedCaller | undefined): ApiError {
    if (who) this.emit((l) => l.failedRequest?.(who.requestId));
    return failure.error;
  }

  /** No deployment left: the last attempt's error, else every deployment cold (503 + Retry-After) or busy. */
  private noDeployment(model: CatalogModel, why: 'cold' | 'overloaded' | 'exhausted', last: AttemptFailed | null, who: RoutedCaller | undefined): ApiError {
    if (last) return this.finalFailure(last, who);
    if (why === 'overloaded') return ApiError.unavailable('model_overloaded', `The model '${model.id}' is at its concurrency limit; retry shortly.`, 1);
    const seconds = Math.min(...deploymentsOf(model).map((d) => d.cold_start_seconds));
    return ApiError.unavailable('model_cold', `The model '${model.id}' is scaled to zero and starting; retry later.`, seconds);
  }

  private emit(call: (listener: RoutingListener) => void): void {
    for (const listener of this.listeners) call(listener);
  }
}

/** A body that can be sent again: JSON, a buffer, a form (rebuilt per attempt); never a consumed stream. */
export function isReplayable(body: unknown): boolean {
  return !(body instanceof Readable);
}
