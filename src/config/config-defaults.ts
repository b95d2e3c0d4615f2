// Defaults the spec fixes (rate limit 60/60 s, metering `boundary`, media rejected when absent).
import type { GatewayConfig } from './gateway-config';
import { MANAGEMENT_RATE_LIMIT } from '../rate-limits/management-rate-window';
import type { CatalogModel } from '../catalog/catalog.types';
import { DEFAULT_USAGE_FORMAT } from '../billing/client-usage';
import { withDeployments } from '../routing/catalog-deployments';

export const DEFAULT_RATE_LIMIT = { requests: 60, window_seconds: 60 };
export const DEFAULT_UPSTREAM_TIMEOUT_MS = 60_000;
export const DEFAULT_COLD_START_SECONDS = 30;

function withModelDefaults(model: CatalogModel): CatalogModel {
  return {
    ...model,
    object: 'model',
    canonical_slug: model.canonical_slug ?? model.id,
    media_profiles: { audio: null, image: null, video: null, ...(model.media_profiles ?? {}) },
    ...withDeployments(model, { timeoutMs: DEFAULT_UPSTREAM_TIMEOUT_MS, coldStartSeconds: DEFAULT_COLD_START_SECONDS }),
  };
}

export function applyDefaults(raw: Partial<GatewayConfig>): GatewayConfig {
  return {
    price_book_version: raw.price_book_version ?? '1',
    models: (raw.models ?? []).map(withModelDefaults),
    aliases: raw.aliases ?? [],
    organizations: (raw.organizations ?? []).map((org) => ({
      ...org,
      payment_method: org.payment_method ?? false,
      rate_limit: { ...DEFAULT_RATE_LIMIT, ...(org.rate_limit ?? {}) },
      usage_format: org.usage_format ?? DEFAULT_USAGE_FORMAT,
    })),
    keys: (raw.keys ?? []).map((key) => ({
      ...key,
      owner: key.owner ?? key.id,
      default_organization: key.default_organization ?? key.organizations[0],
    })),
    management_keys: raw.management_keys ?? [],
    management_rate_limit: raw.management_rate_limit ?? { ...MANAGEMENT_RATE_LIMIT },
    services: raw.services ?? {},
    probe: { interval_ms: 5000, stale_after_intervals: 3, ...(raw.probe ?? {}) },
  };
}
