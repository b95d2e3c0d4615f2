// Finds a key by id among the configured ones (bootstrap, read-only here) and the runtime ones.
import { ApiError } from '../common/api-error';
import type { GatewayConfig } from '../config/gateway-config';
import type { ApiKeyRecord } from '../access/access.types';
import type { KeyRegistry, RegisteredKey } from './domain/key-registry';
import { notFound } from './domain/api-key';

export type FoundKey = { source: 'configuration'; key: ApiKeyRecord } | { source: 'api'; key: RegisteredKey };

export function findKey(config: GatewayConfig, registry: KeyRegistry, id: string): FoundKey {
  const configured = config.keys.find((k) => k.id === id);
  if (configured) return { source: 'configuration', key: configured };
  const registered = registry.byKeyId(id);
  if (registered) return { source: 'api', key: registered };
  throw notFound(id);
}

/** The API cannot change a configured key: the configuration file is its source of truth. */
export function configuredKeyIsReadOnly(id: string): ApiError {
  return new ApiError(409, 'configuration_key',
    `API key '${id}' comes from the gateway configuration file (a bootstrap key); change or remove it there and restart.`,
    'invalid_request_error', 'id');
}
