import { Registry } from 'prom-client';
import type { CatalogModel } from '../../catalog/catalog.types';
import type { EventStore, RecordedEvent } from '../../event-store/event-store.port';
import type { RelayStatus } from '../../kafka/relay/kafka-relay';
import { registerStateMetrics, type StateSources } from './state-metrics';

const model = (id: string, cap: number | null) => ({ id, upstream: { max_concurrency: cap } }) as unknown as CatalogModel;

/** A store of `count` events at positions 1..count (only what lag counting reads). */
function storeOf(count: number): EventStore {
  const events = Array.from({ length: count }, (_, i) => ({ position: String(i + 1) }) as RecordedEvent);
  return {
    headPosition: async () => (count === 0 ? null : String(count)),
    readAll: async ({ after, maxCount }: { after: string | null; maxCount: number }) => events.filter((e) => Number(e.position) > Number(after ?? 0)).slice(0, maxCount),
  } as unknown as EventStore;
}

const relayStatus = (over: Partial<RelayStatus>): RelayStatus => ({
  eventsBehind: 0, eventsBehindCapped: false, checkpoint: null, consecutiveFailures: 0, totalFailures: 0, lastError: null, publishedMessages: 0, parkedEvents: 0, ...over,
});

function sources(over: Partial<StateSources> = {}): StateSources {
  return {
    models: () => [model('aria', 4), model('rhythm', null), model('canvas', 2)],
    statusOf: (id) => (id === 'aria' ? 'warm' : id === 'rhythm' ? 'cold' : undefined),
    inFlightOf: (id) => (id === 'aria' ? 3 : 0),
    spool: () => ({ spooled: 5, drained: 4, pending: 1, used_bytes: 10, capacity_bytes: 100, full: false }),
    parked: () => ({ 'daily-cost': 2 }),
    store: storeOf(7),
    projections: [{ name: 'rate-limit', checkpoint: () => '7' }, { name: 'daily-cost', checkpoint: () => '4' }, { name: 'model-status', checkpoint: () => null }],
    relayLag: null,
    ...over,
  };
}

async function lines(registry: Registry): Promise<string[]> {
  return (await registry.metrics()).split('\n').filter((line) => line.startsWith('gateway_'));
}

describe('state metrics, read when scraped', () => {
  it('show each model\'s state, in-flight work and cap (uncapped models have no cap series)', async () => {
    const registry = new Registry();
    registerStateMetrics(registry, sources());
    const scraped = await lines(registry);
    expect(scraped).toEqual(expect.arrayContaining([
      'gateway_model_status{model="aria",state="warm"} 1', 'gateway_model_status{model="aria",state="cold"} 0',
      'gateway_model_status{model="rhythm",state="cold"} 1', 'gateway_model_status{model="canvas",state="unknown"} 1',
      'gateway_model_in_flight{model="aria"} 3', 'gateway_model_concurrency_cap{model="aria"} 4', 'gateway_model_concurrency_cap{model="canvas"} 2',
    ]));
    expect(scraped.some((line) => line.startsWith('gateway_model_concurrency_cap{model="rhythm"'))).toBe(false);
  });

  it('count the events behind each projection\'s checkpoint, the spool and the parked events', async () => {
    const registry = new Registry();
    registerStateMetrics(registry, sources());
    expect(await lines(registry)).toEqual(expect.arrayContaining([
      'gateway_projection_events_behind{projection="rate-limit"} 0', 'gateway_projection_events_behind{projection="daily-cost"} 3',
      'gateway_projection_events_behind{projection="model-status"} 7', 'gateway_projection_parked_events{projection="daily-cost"} 2',
      'gateway_billing_spooled_usages_total 5', 'gateway_billing_spool_drained_total 4', 'gateway_billing_spool_pending 1',
    ]));
  });

  it('follow the values between scrapes: a counter shows the count kept elsewhere, an acknowledged projection disappears', async () => {
    const registry = new Registry();
    let parked: Record<string, number> = { 'daily-cost': 2 };
    let spooled = 5;
    registerStateMetrics(registry, sources({ parked: () => parked, spool: () => ({ spooled, drained: 0, pending: 0, used_bytes: 0, capacity_bytes: 1, full: false }) }));
    await registry.metrics();
    parked = {};
    spooled = 9;
    const scraped = await lines(registry);
    expect(scraped).toContain('gateway_billing_spooled_usages_total 9');
    expect(scraped.some((line) => line.startsWith('gateway_projection_parked_events'))).toBe(false);
  });

  it('read the Kafka relay once per scrape for its lag, failures, messages and parked events', async () => {
    const registry = new Registry();
    const relayLag = jest.fn(async () => relayStatus({ eventsBehind: 42, totalFailures: 3, publishedMessages: 100, parkedEvents: 1 }));
    registerStateMetrics(registry, sources({ relayLag }));
    expect(await lines(registry)).toEqual(expect.arrayContaining([
      'gateway_kafka_relay_events_behind 42', 'gateway_kafka_relay_failures_total 3',
      'gateway_kafka_relay_published_messages_total 100', 'gateway_kafka_relay_parked_events 1',
    ]));
    expect(relayLag).toHaveBeenCalledTimes(1);
  });

  it('have no relay metrics without a relay', async () => {
    const registry = new Registry();
    registerStateMetrics(registry, sources());
    expect((await lines(registry)).some((line) => line.startsWith('gateway_kafka_relay'))).toBe(false);
  });
});
