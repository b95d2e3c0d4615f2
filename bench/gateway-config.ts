// Operator configurations for the gateway under test: the example catalog (every upstream pointed at
// the mock through SIMULATOR_URL) with one key and rate limits far above the offered load, so the
// limiter runs its full admission path without ever refusing.
import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { writeTestConfig } from '../test/support/config-file';

export const UNREACHABLE_RATE_LIMIT = { requests: 1_000_000_000, window_seconds: 60 };

export interface BenchGatewayConfig {
  path: string;
  apiKey: string;
}

/**
 * org-demo only, as in the example configuration. Its one organization may use every upstream slot: the
 * load's 50 connections are one tenant, and the fair share (half of `max_concurrency` by default) would
 * refuse the rest, which is what it is for when there are others, not what this benchmark measures.
 */
export function writeOverheadConfig(dir: string, deployments = Number(process.env.BENCH_DEPLOYMENTS ?? 0)): BenchGatewayConfig {
  mkdirSync(dir, { recursive: true });
  const apiKey = `sk-bench-${randomBytes(16).toString('hex')}`;
  const path = writeTestConfig(dir, apiKey, (raw) => {
    raw.organizations = [{ id: 'org-demo', name: 'Demo organization', payment_method: true, rate_limit: UNREACHABLE_RATE_LIMIT }];
    for (const model of raw.models) model.upstream = { ...model.upstream, organization_share: 1 };
    if (deployments > 0) withDeployments(raw.models.find((model: { id: string }) => model.id === 'aria'), deployments);
  });
  return { path, apiKey };
}

/**
 * BENCH_DEPLOYMENTS=N: aria served by N like deployments of the mock (the example catalog declares two),
 * sharing the model's 64 upstream slots, so the load's 50 connections fit whatever N.
 */
function withDeployments(aria: { deployments: Record<string, unknown>[] }, count: number): void {
  const first = aria.deployments[0];
  const slots = Math.ceil(64 / count);
  aria.deployments = Array.from({ length: count }, (_, i) => ({ ...first, id: `bench-${i + 1}`, weight: 1, max_concurrency: slots }));
}

/** The cost store's organizations, all paying, with one key that is a member of every one of them. */
export function writeCostsConfig(dir: string, organizationIds: string[]): BenchGatewayConfig {
  mkdirSync(dir, { recursive: true });
  const apiKey = `sk-bench-${randomBytes(16).toString('hex')}`;
  const path = writeTestConfig(dir, apiKey, (raw) => {
    raw.organizations = organizationIds.map((id) => ({ id, payment_method: true, rate_limit: UNREACHABLE_RATE_LIMIT }));
    raw.keys[0].organizations = organizationIds;
    raw.keys[0].default_organization = organizationIds[0];
  });
  return { path, apiKey };
}
