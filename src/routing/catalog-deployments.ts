// A model's deployments as loaded: `deployments:` with their defaults, or today's `upstream:` as the one
// deployment `default`. The model's `upstream` keeps the model-wide options (dialect, upstream model
// name, organization share...) and, for code that knows one upstream only, the first deployment's
// address; the model gate's cap is the sum of the deployments' caps when every one has a cap.
import type { CatalogModel, DeploymentConfig, UpstreamConfig } from '../catalog/catalog.types';

export const DEFAULT_DEPLOYMENT_ID = 'default';

export interface DeploymentDefaults {
  timeoutMs: number;
  coldStartSeconds: number;
}

type RawDeployment = Partial<DeploymentConfig> & Pick<DeploymentConfig, 'id' | 'base_url'>;
type RawModel = Omit<CatalogModel, 'deployments' | 'upstream'> & { upstream?: Partial<UpstreamConfig>; deployments?: RawDeployment[] };

/**
 * A model declared with `upstream:` keeps no `deployments`: deploymentsOf() derives its one deployment
 * from its upstream when asked, so a copy of the model with another upstream (tests do this) routes there.
 */
export function withDeployments(model: RawModel, defaults: DeploymentDefaults): { upstream: UpstreamConfig; deployments?: DeploymentConfig[] } {
  const declared = model.deployments ?? [];
  if (declared.length === 0) return { upstream: withUpstreamDefaults(model.upstream ?? {}, defaults) };
  const deployments = declared.map((d) => withDeploymentDefaults(d, defaults));
  const first = deployments[0];
  const caps = deployments.map((d) => d.max_concurrency ?? null);
  const upstream: UpstreamConfig = {
    ...model.upstream,
    base_url: first.base_url,
    api_key: first.api_key ?? null,
    health_url: first.health_url ?? null,
    timeout_ms: Math.max(...deployments.map((d) => d.timeout_ms)),
    cold_start_seconds: Math.min(...deployments.map((d) => d.cold_start_seconds)),
    max_concurrency: model.upstream?.max_concurrency ?? (caps.every((c) => c !== null) ? caps.reduce((a, b) => a! + b!, 0) : null),
  };
  return { upstream, deployments };
}

function withUpstreamDefaults(upstream: Partial<UpstreamConfig>, defaults: DeploymentDefaults): UpstreamConfig {
  return {
    ...upstream,
    base_url: upstream.base_url ?? '',
    timeout_ms: upstream.timeout_ms ?? defaults.timeoutMs,
    cold_start_seconds: upstream.cold_start_seconds ?? defaults.coldStartSeconds,
  };
}

function fromUpstream(upstream: UpstreamConfig): DeploymentConfig {
  return {
    id: DEFAULT_DEPLOYMENT_ID,
    base_url: upstream.base_url,
    api_key: upstream.api_key ?? null,
    health_url: upstream.health_url ?? null,
    timeout_ms: upstream.timeout_ms,
    max_concurrency: upstream.max_concurrency ?? null,
    cold_start_seconds: upstream.cold_start_seconds,
    weight: 1,
    cost: null,
  };
}

function withDeploymentDefaults(d: RawDeployment, defaults: DeploymentDefaults): DeploymentConfig {
  return {
    ...d,
    api_key: d.api_key ?? null,
    health_url: d.health_url ?? null,
    timeout_ms: d.timeout_ms ?? defaults.timeoutMs,
    cold_start_seconds: d.cold_start_seconds ?? defaults.coldStartSeconds,
    max_concurrency: d.max_concurrency ?? null,
    weight: d.weight ?? 1,
    cost: d.cost ?? null,
  };
}

/** The URL probed for a deployment's readiness: its `health_url`, else `/health` at its origin. */
export function healthUrlOfDeployment(deployment: DeploymentConfig): string {
  return deployment.health_url ?? `${new URL(deployment.base_url).origin}/health`;
}

const implicit = new WeakMap<CatalogModel, DeploymentConfig[]>();

/** A model's deployments; a model built without them (tests, embedded defaults) has its upstream as one. */
export function deploymentsOf(model: CatalogModel): DeploymentConfig[] {
  if (model.deployments && model.deployments.length > 0) return model.deployments;
  let deployments = implicit.get(model);
  if (!deployments) implicit.set(model, (deployments = [fromUpstream(model.upstream)]));
  return deployments;
}
