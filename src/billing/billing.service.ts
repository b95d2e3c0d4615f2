// The one path every billable request takes: meter -> price -> append UsageMeasured + CostPriced,
// awaited before the response. If the append fails the request fails (503): nothing is served unbilled.
import type { CatalogModel } from '../catalog/catalog.types';
import type { RequestContext } from '../common/request-context';
import { ApiError } from '../common/api-error';
import { EventStore } from '../event-store/event-store.port';
import { eventIdFor, requestStreamId } from '../event-store/event-ids';
import type { CostPricedV1, UsageMeasuredV1 } from './billing.events';
import { EVENT_SCHEMA_VERSION } from './billing.events';
import type { Measurement } from './metering/measurement';
import { meter } from './metering/meter';
import { price } from './pricing/price';
import type { Usage } from './usage';

export interface ChargeInput {
  ctx: Pick<RequestContext, 'requestId' | 'correlationId' | 'caller'>;
  model: CatalogModel;
  /** The route template, e.g. `/v1/chat/completions`. */
  endpoint: string;
  measurement: Measurement;
}

export class BillingService {
  constructor(
    private readonly store: EventStore,
    private readonly priceBookVersion: string,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async charge({ ctx, model, endpoint, measurement }: ChargeInput): Promise<Usage> {
    const metered = meter(model, measurement);
    const priced = price(model, metered);
    const occurredAt = this.now().toISOString();
    const usageMeasured: UsageMeasuredV1 = {
      requestId: ctx.requestId,
      correlationId: ctx.correlationId,
      organizationId: ctx.caller.organizationId,
      keyId: ctx.caller.keyId,
      model: model.id,
      endpoint,
      input: metered.input,
      output: metered.output,
      metering: metered.metering,
      occurredAt,
    };
    const costPriced: CostPricedV1 = {
      requestId: ctx.requestId,
      organizationId: ctx.caller.organizationId,
      model: model.id,
      endpoint,
      costUsdMicros: priced.costUsdMicros,
      lineItems: priced.lineItems,
      priceBookVersion: this.priceBookVersion,
      occurredAt,
    };
    await this.record(ctx.requestId, usageMeasured, costPriced);
    return { input: metered.input, output: metered.output, cost_usd_micros: priced.costUsdMicros };
  }

  private async record(requestId: string, usage: UsageMeasuredV1, cost: CostPricedV1): Promise<void> {
    const metadata = { schemaVersion: EVENT_SCHEMA_VERSION };
    try {
      await this.store.append(requestStreamId(requestId), [
        { id: eventIdFor(requestId, 'UsageMeasured'), type: 'UsageMeasured', data: usage, metadata },
        { id: eventIdFor(requestId, 'CostPriced'), type: 'CostPriced', data: cost, metadata },
      ]);
    } catch {
      throw ApiError.unavailable('billing_unavailable', 'Billing could not be recorded; the request was not served. Retry shortly.', 1);
    }
  }
}
