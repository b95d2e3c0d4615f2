// Makes the runtime's parts injectable everywhere, each by its own class or token: no handler or
// controller sees the runtime as a whole.
import { DynamicModule, Global, Module } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';
import { CatalogService } from '../catalog/catalog.service';
import { EventStore } from '../event-store/event-store.port';
import { AccessStore } from '../access/access.store';
import { RateLimiter } from '../rate-limits/rate-limiter.port';
import { BillingService } from '../billing/billing.service';
import { BudgetHolds } from '../budgets/budget-holds';
import { SpendReader } from '../budgets/spend-reader';
import { UpstreamClient } from '../upstream/upstream.client';
import { ModelGate } from '../models/model-gate/model-gate';
import { MediaGate } from '../media/admission/media-gate';
import { KeyGuard } from '../access/key.guard';
import { KeyRateWindows } from '../rate-limits/management-rate-window';
import type { GatewayRuntime } from './gateway-runtime';
import { MODEL_STATUS } from '../models/model-status/model-status.token';
import { CostReadModels } from '../costs/read-model/cost-read-models';
import { KeyRegistryProjection } from '../keys/key-registry.projection';
import { Readiness } from '../health/readiness';
import { CURSOR_SECRET, GATEWAY_CONFIG, GATEWAY_LOG, VALIDATION_SPANS } from '../common/runtime-tokens';
import { MarginsReader } from '../routing/margins/margins-reader';

/** What /readyz reads, from the runtime's parts (the health controller sees nothing else). */
function readinessOf(runtime: GatewayRuntime): Readiness {
  const { catalog, eventStore, services, spool, relay } = runtime;
  return new Readiness({
    catalogLoaded: () => catalog.all().length > 0,
    eventStore,
    services,
    spoolCounts: () => spool.counts(),
    relayStatus: relay ? () => relay.lastStatus() : null,
  });
}

@Global()
@Module({})
export class CoreModule {
  static forRoot(runtime: GatewayRuntime): DynamicModule {
    const providers = [
      { provide: GATEWAY_CONFIG, useValue: runtime.config },
      { provide: GATEWAY_LOG, useValue: runtime.log },
      { provide: CURSOR_SECRET, useValue: runtime.cursorSecret },
      { provide: VALIDATION_SPANS, useValue: runtime.tracing?.validation ?? null },
      { provide: CostReadModels, useValue: runtime.costs },
      { provide: KeyRegistryProjection, useValue: runtime.keyRegistry },
      { provide: MarginsReader, useValue: new MarginsReader(runtime.eventStore, runtime.readModels) },
      { provide: Readiness, useValue: readinessOf(runtime) },
      { provide: CatalogService, useValue: runtime.catalog },
      { provide: EventStore, useValue: runtime.eventStore },
      { provide: AccessStore, useValue: runtime.accessStore },
      { provide: RateLimiter, useValue: runtime.rateLimiter },
      { provide: BillingService, useValue: runtime.billing },
      { provide: BudgetHolds, useValue: runtime.budgets },
      { provide: SpendReader, useValue: runtime.budgets },
      { provide: UpstreamClient, useValue: runtime.upstream },
      { provide: ModelGate, useValue: runtime.modelGate },
      { provide: MediaGate, useValue: runtime.media },
      { provide: MODEL_STATUS, useValue: runtime.modelStatus },
      { provide: KeyRateWindows, useValue: new KeyRateWindows() },
      KeyGuard,
    ];
    return {
      module: CoreModule,
      imports: [CqrsModule.forRoot()],
      providers,
      exports: [...providers.map((p) => ('provide' in p ? p.provide : p)), CqrsModule],
    };
  }
}
