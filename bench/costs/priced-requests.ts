// Realistic billing records for the store benchmarks: a fixed set of request shapes over the example
// catalog (text chat, chat with an image, moderated chat, speech, transcription, image generation,
// decisions) metered and priced by the gateway's own meter() and price(), so the events carry the
// line items the gateway really writes. Shapes are precomputed once; requests cycle through them.
import { loadConfigFile } from '../../src/config/load-config';
import { exampleConfigPath } from '../../src/embedded-default';
import type { CatalogModel } from '../../src/catalog/catalog.types';
import type { Measurement } from '../../src/billing/metering/measurement';
import { meter } from '../../src/billing/metering/meter';
import { price } from '../../src/billing/pricing/price';
import { EVENT_SCHEMA_VERSION } from '../../src/event-store/gateway-event-types';
import { type CostPricedV1, type UsageMeasuredV1 } from '../../src/billing/billing.events';
import { eventIdFor } from '../../src/event-store/event-ids';
import type { NewEvent } from '../../src/event-store/event-store.port';

type Shape = Omit<CostPricedV1, 'requestId' | 'organizationId' | 'occurredAt'> & Pick<UsageMeasuredV1, 'input' | 'output' | 'metering'>;

/** Deterministic pseudo-random integers in [low, high] (the same shapes on every run). */
function seededIntegers(seed: number): (low: number, high: number) => number {
  let state = seed >>> 0;
  return (low, high) => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return low + (state % (high - low + 1));
  };
}

function measurementsFor(modelId: string, next: (low: number, high: number) => number): Measurement {
  const report = { promptTokens: next(20, 4000), completionTokens: next(5, 800), cachedTokens: next(0, 1) * next(0, 512) };
  switch (modelId) {
    case 'aria':
      return next(0, 3) === 0 ? { upstream: report, input: { images: [{ width: next(256, 2048), height: next(256, 2048) }] }, output: {} } : { upstream: report, input: {}, output: {} };
    case 'chorus-voices':
      return { input: { textCharacters: next(20, 2000) }, output: { audio: [{ durationSeconds: `${next(1, 120)}.${next(0, 999)}` }] } };
    case 'symphony':
      return { input: { audio: [{ durationSeconds: `${next(1, 600)}.${next(0, 999)}` }] }, output: { textTokens: next(10, 3000) } };
    case 'canvas':
      return { input: {}, output: { imageCount: next(1, 4) } };
    case 'verdict':
      return { input: { textTokens: next(20, 2000) }, output: { textTokens: next(1, 20) } };
    default:
      return { upstream: report, input: {}, output: {} };
  }
}

const MODELS: Record<string, string> = {
  aria: '/v1/chat/completions',
  'aria-guarded': '/v1/chat/completions',
  'chorus-voices': '/v1/audio/speech',
  symphony: '/v1/audio/transcriptions',
  canvas: '/v1/images/generations',
  verdict: '/v1/decisions',
};

export function pricedShapes(count = 64): Shape[] {
  const config = loadConfigFile(exampleConfigPath(), { ...process.env, SIMULATOR_URL: 'http://127.0.0.1:1' });
  const next = seededIntegers(20261101);
  const ids = Object.keys(MODELS);
  return Array.from({ length: count }, (_, index) => {
    const model = config.models.find((candidate) => candidate.id === ids[index % ids.length]) as CatalogModel;
    const metered = meter(model, measurementsFor(model.id, next));
    const priced = price(model, metered);
    return {
      model: model.id,
      endpoint: MODELS[model.id],
      costUsdMicros: priced.costUsdMicros,
      lineItems: priced.lineItems,
      priceBookVersion: config.price_book_version,
      input: metered.input,
      output: metered.output,
      metering: metered.metering,
    };
  });
}

export interface BilledRequest {
  requestId: string;
  organizationId: string;
  occurredAt: string;
}

/** CostPriced alone (the cost store holds one per request). */
export function costPricedEvent(shape: Shape, request: BilledRequest): NewEvent<CostPricedV1> {
  const { model, endpoint, costUsdMicros, lineItems, priceBookVersion } = shape;
  return {
    id: eventIdFor(request.requestId, 'CostPriced'),
    type: 'CostPriced',
    data: { ...request, model, endpoint, costUsdMicros, lineItems, priceBookVersion },
    metadata: { schemaVersion: EVENT_SCHEMA_VERSION },
  };
}

/** UsageMeasured + CostPriced, the pair BillingService appends for every billed request. */
export function billingEvents(shape: Shape, request: BilledRequest): NewEvent[] {
  const usage: UsageMeasuredV1 = {
    ...request,
    correlationId: null,
    keyId: 'key-bench',
    model: shape.model,
    endpoint: shape.endpoint,
    input: shape.input,
    output: shape.output,
    metering: shape.metering,
  };
  const metadata = { schemaVersion: EVENT_SCHEMA_VERSION };
  return [{ id: eventIdFor(request.requestId, 'UsageMeasured'), type: 'UsageMeasured', data: usage, metadata }, costPricedEvent(shape, request)];
}
