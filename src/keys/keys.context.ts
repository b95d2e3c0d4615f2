// What the key API's handlers are given: the runtime's registry projection, the configuration and the store.
import { Inject, Injectable } from '@nestjs/common';
import { GATEWAY_RUNTIME } from '../core/core.module';
import type { GatewayRuntime } from '../core/gateway-runtime';
import type { EventStore } from '../event-store/event-store.port';
import type { GatewayConfig } from '../config/gateway-config';
import type { KeyRegistryProjection } from './key-registry.projection';
import type { KeyRegistry } from './domain/key-registry';

@Injectable()
export class KeysContext {
  readonly store: EventStore;
  readonly projection: KeyRegistryProjection;
  readonly registry: KeyRegistry;
  readonly config: GatewayConfig;

  constructor(@Inject(GATEWAY_RUNTIME) runtime: GatewayRuntime) {
    this.store = runtime.eventStore;
    this.projection = runtime.keyRegistry;
    this.registry = runtime.keyRegistry.registry;
    this.config = runtime.config;
  }
}
