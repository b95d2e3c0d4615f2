// The one path every billable request takes: meter -> price -> append UsageMeasured + CostPriced,
// awaited before the response. If the append fails the request fails (503): nothing is served unbilled.
// Output already delivered (a stream) cannot be withheld, so its events go to the durable spool instead
// and reach the store later with the same ids: no usage is ever dropped (docs/metering.md, "Spool").
import { SILENT_LOG, type GatewayLog } from '../common/gateway-log';
import type { CatalogModel } from '../catalog/catalog.types';
import type { RequestContext } from '../common/request-context';
import { ApiError } from '../common/api-error';
import { copyWith } from '../common/copy-with';
import { EventStore, type NewEvent } from '../event-store/event-store.port';
import { eventIdFor, requestStreamId } from '../event-store/event-ids';
import type { CostPricedV1, UsageDisputedV1, UsageMeasuredV1 } from './billing.events';
import type { GatewayEventType } from '../event-store/gateway-event-types';
import { EVENT_SCHEMA_VERSION } from '../event-store/gateway-event-types';
import type { Measurement } from './metering/measurement';
import { meter, type MeteredUsage } from './metering/meter';
import { boundReport, type DisputedField, hasHardDispute } from './metering/plausibility';
import { CostOutOfRangeError } from './pricing/cost-range';
import { price, type PricedRequest } from './pricing/price';
import type { Usage } from './usage';
import { requestLogFields } from '../observability/logging/request-log-fields';
import type { BudgetHolds } from '../budgets/budget-holds';
import { appendCharge } from '../budgets/append-charge';
import { chargeCoveringRequest, noteKeyCharge } from '../idempotency/charge-once';
import { NO_PROGRESS, type ProgressTracker, type StreamProgressJournal } from '../idempotency/stream-progress';

export interface ChargeInput {
  ctx: Pick<RequestContext, 'requestId' | 'correlationId' | 'caller'>;
  model: CatalogModel;
  /** The route template, e.g. `/v1/chat/completions`. */
  endpoint: string;
  measurement: Measurement;
  /** True when the output already reached the client (streams): a failed append is then spooled. */
  delivered?: boolean;
  /** Output the handler counted and billed at a bound (src/billing/metering/output-bounds.ts). */
  disputes?: readonly DisputedField[];
}

/** Where events go when the store cannot take them after delivery (src/billing/spool). */
export interface UsageSpool {
  keep(streamId: string, events: NewEvent[]): Promise<void>;
}

/** Sees every charge that was recorded (appended or spooled) and each append's time (metrics). */
export interface BillingObserver {
  charged(modelId: string, endpoint: string, costUsdMicros: number | null, disputed: boolean): void;
  appended(seconds: number): void;
}

/** The request's upstream attempts (src/routing/attempt-log.ts), appended with its charge. */
export interface AttemptEvents {
  take(requestId: string, model: CatalogModel, usage: MeteredUsage): NewEvent[];
  /** The same events, left in the log (a running stream's pending charge). */
  peek(requestId: string, model: CatalogModel, usage: MeteredUsage): NewEvent[];
}

/** Wraps every charge (tracing: the `billing` span under its request's span). */
export interface ChargeTracer {
  charge<R extends { usage: Usage }>(input: ChargeInput, run: () => Promise<R>): Promise<R>;
}

export class BillingService {
  private progress: StreamProgressJournal | null = null;

  constructor(
    private readonly store: EventStore,
    private readonly priceBookVersion: string,
    private readonly now: () => Date = () => new Date(),
    private readonly spool: UsageSpool | null = null,
    private readonly observer: BillingObserver | null = null,
    private readonly budgets: BudgetHolds | null = null,
    private readonly tracer: ChargeTracer | null = null,
    /** Context `billing`. */
    private readonly logger: GatewayLog = SILENT_LOG,
  ) {}

  private attempts: AttemptEvents | null = null;

  /** Every charge then carries the request's UpstreamAttemptRecorded events, with its cost of goods. */
  recordAttemptsFrom(attempts: AttemptEvents): void {
    this.attempts = attempts;
  }

  /** Streams' progress is made durable here from now on (src/idempotency/stream-progress.ts). */
  keepStreamProgress(journal: StreamProgressJournal): void {
    this.progress = journal;
  }

  /** Where a stream reports what it relayed; a request whose key's charge is an earlier one's keeps none. */
  streamProgress(requestId: string): ProgressTracker {
    if (this.progress === null || chargeCoveringRequest(requestId) !== null) return NO_PROGRESS;
    return this.progress.track(requestId);
  }

  async charge(input: ChargeInput): Promise<Usage> {
    return (await this.chargeMetered(input)).usage;
  }

  /** charge(), also returning the metered vector that was billed (for responses that show its breakdown). */
  chargeMetered(input: ChargeInput): Promise<{ usage: Usage; metered: MeteredUsage }> {
    return this.tracer ? this.tracer.charge(input, () => this.meterAndAppend(input)) : this.meterAndAppend(input);
  }

  private async meterAndAppend(input: ChargeInput): Promise<{ usage: Usage; metered: MeteredUsage }> {
    const { ctx, delivered = false } = input;
    const { events, usage, metered, costPriced, disputes } = this.chargeOf(input);
    // A retry under an Idempotency-Key whose earlier (dead) claimant was charged: answered, not charged again.
    if (chargeCoveringRequest(ctx.requestId) !== null) return { usage, metered };
    if (this.attempts !== null) events.push(...this.attempts.take(ctx.requestId, input.model, metered));
    const thresholds = this.budgets === null ? null : this.budgets.settlementEvents(ctx, costPriced.costUsdMicros, costPriced.occurredAt);
    if (thresholds === null) await this.record(ctx, events, delivered);
    else await this.recordSettling(ctx, events.concat(thresholds), delivered, costPriced);
    noteKeyCharge(ctx.requestId, costPriced.costUsdMicros);
    this.observer?.charged(input.model.id, input.endpoint, costPriced.costUsdMicros, hasHardDispute(disputes));
    return { usage, metered };
  }

  /**
   * The events a charge of this input would append now, unrecorded: a running stream's progress
   * (src/idempotency/stream-progress.ts), appended after a crash with the ids the final charge would have had
   * (its upstream attempts included, left in the log for the final charge).
   */
  pendingCharge(input: ChargeInput): { streamId: string; events: NewEvent[] } {
    const { events, metered } = this.chargeOf(input);
    if (this.attempts !== null) events.push(...this.attempts.peek(input.ctx.requestId, input.model, metered));
    return { streamId: requestStreamId(input.ctx.requestId), events };
  }

  private chargeOf({ ctx, model, endpoint, measurement, disputes: counted }: ChargeInput) {
    const { bounded, disputes } = withinBounds(measurement);
    if (counted !== undefined) disputes.push(...counted);
    const metered = meter(model, bounded, disputes);
    const priced = priceOrRefuse(model, metered);
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
    const events = [requestEvent(ctx.requestId, 'UsageMeasured', usageMeasured), requestEvent(ctx.requestId, 'CostPriced', costPriced)];
    if (disputes.length > 0) {
      const usageDisputed: UsageDisputedV1 = {
        requestId: ctx.requestId,
        organizationId: ctx.caller.organizationId,
        keyId: ctx.caller.keyId,
        model: model.id,
        endpoint,
        severity: hasHardDispute(disputes) ? 'hard' : 'soft',
        disputes,
        occurredAt,
      };
      events.push(requestEvent(ctx.requestId, 'UsageDisputed', usageDisputed));
    }
    const usage: Usage = { input: metered.input, output: metered.output, cost_usd_micros: priced.costUsdMicros };
    return { events, usage, metered, costPriced, disputes };
  }

  /** A caller with limits: the CostPriced settles its holds, threshold crossings go in the same append. */
  private async recordSettling(ctx: ChargeInput['ctx'], events: NewEvent[], delivered: boolean, charge: CostPricedV1): Promise<void> {
    try {
      await this.record(ctx, events, delivered);
    } catch (error) {
      this.budgets!.chargeFailed(ctx.requestId);
      throw error;
    }
    this.budgets!.settled(ctx, charge.costUsdMicros, charge.occurredAt);
  }

  private async record(ctx: ChargeInput['ctx'], events: NewEvent[], delivered: boolean): Promise<void> {
    const streamId = requestStreamId(ctx.requestId);
    const startedAt = this.observer === null ? 0 : performance.now();
    try {
      await appendCharge((charge) => this.store.append(streamId, charge), events);
      this.observer?.appended((performance.now() - startedAt) / 1000);
      return;
    } catch (error) {
      this.logger.error(requestLogFields(ctx, { delivered, err: error }), 'billing append failed');
      if (!delivered || !this.spool) throw unavailable();
    }
    try {
      await this.spool.keep(streamId, events);
    } catch (error) {
      this.logger.error(requestLogFields(ctx, { err: error, events }), 'USAGE NOT RECORDED: the billing append and the spool both failed');
      throw unavailable();
    }
  }
}

const EVENT_METADATA = { schemaVersion: EVENT_SCHEMA_VERSION };

function requestEvent(requestId: string, type: GatewayEventType, data: unknown): NewEvent {
  return { id: eventIdFor(requestId, type), type, data, metadata: EVENT_METADATA };
}

/** Every upstream report passes the plausibility bounds before metering (docs/metering.md). */
function withinBounds(measurement: Measurement): { bounded: Measurement; disputes: DisputedField[] } {
  const reported = measurement.reported ?? measurement.upstream;
  if (!reported) return { bounded: measurement, disputes: [] };
  const { report, disputes } = boundReport(reported, measurement.limits);
  return { bounded: copyWith(measurement, { upstream: report }), disputes };
}

/** A cost past 2^53 - 1 micros is refused: the request fails and nothing is appended (docs/pricing.md). */
function priceOrRefuse(model: CatalogModel, metered: MeteredUsage): PricedRequest {
  try {
    return price(model, metered);
  } catch (error) {
    if (!(error instanceof CostOutOfRangeError)) throw error;
    throw new ApiError(500, 'cost_out_of_range', `${error.message}; the request was not billed and its result is withheld.`, 'server_error');
  }
}

function unavailable(): ApiError {
  return ApiError.unavailable('billing_unavailable', 'Billing could not be recorded; the request was not served. Retry shortly.', 1);
}
