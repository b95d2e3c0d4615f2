// What the key API's handlers are given: the registry projection, the configuration and the store.
import { Inject, Injectable } from '@nestjs/common';
import { GATEWAY_CONFIG } from '../common/runtime-tokens';
import { EventStore } from '../event-store/event-store.port';
import type { GatewayConfig } from '../config/gateway-config';
import { KeyRegistryProjection } from './key-registry.projection';
import type { KeyRegistry } from './domain/key-registry';

@Injectable()
export class KeysContext {
  readonly registry: KeyRegistry;

  constructor(
    readonly store: EventStore,
    readonly projection: KeyRegistryProjection,
    @Inject(GATEWAY_CONFIG) readonly config: GatewayConfig,
  ) {
    this.registry = projection.registry;
  }
}
