import { Counter, Histogram, Registry } from 'prom-client';
import { HotCounter, HotHistogram } from './hot-metrics';

/** The exposition lines of a registry, sorted (series order is not part of the format). */
async function lines(registry: Registry): Promise<string[]> {
  return (await registry.metrics()).split('\n').filter(Boolean).sort();
}

describe('hot metrics', () => {
  const buckets = [0.01, 0.1, 1];

  it('render a histogram exactly as prom-client does for the same observations, bounds included', async () => {
    const reference = new Registry();
    const hot = new Registry();
    const theirs = new Histogram({ name: 'h_seconds', help: 'h', labelNames: ['route', 'method'], buckets, registers: [reference] });
    const mine = new HotHistogram({ name: 'h_seconds', help: 'h', labelNames: ['route', 'method'] as const, buckets, registry: hot });
    const series = { chat: mine.with({ route: '/v1/chat', method: 'POST' }), speech: mine.with({ route: '/v1/speech', method: 'POST' }) };
    for (const [route, value] of [['chat', 0.01], ['chat', 0.010001], ['chat', 0], ['chat', 7], ['speech', 1], ['speech', 0.5]] as const) {
      theirs.observe({ route: route === 'chat' ? '/v1/chat' : '/v1/speech', method: 'POST' }, value);
      mine.observe(series[route], value);
    }
    expect(await lines(hot)).toEqual(await lines(reference));
  });

  it('render a counter exactly as prom-client does', async () => {
    const reference = new Registry();
    const hot = new Registry();
    const theirs = new Counter({ name: 'c_total', help: 'c', labelNames: ['model'], registers: [reference] });
    const mine = new HotCounter({ name: 'c_total', help: 'c', labelNames: ['model'] as const, registry: hot });
    const aria = mine.with({ model: 'aria' });
    aria.value += 3;
    aria.value += 2 ** 40;
    theirs.inc({ model: 'aria' }, 3);
    theirs.inc({ model: 'aria' }, 2 ** 40);
    expect(await lines(hot)).toEqual(await lines(reference));
  });

  it('renders a histogram without labels, and resets to zero', async () => {
    const registry = new Registry();
    const histogram = new HotHistogram({ name: 'batch', help: 'b', labelNames: [], buckets: [1, 2], registry });
    const series = histogram.with({});
    histogram.observe(series, 2);
    histogram.observe(series, 3);
    expect(await lines(registry)).toEqual(
      ['# HELP batch b', '# TYPE batch histogram', 'batch_bucket{le="1"} 0', 'batch_bucket{le="2"} 1', 'batch_bucket{le="+Inf"} 2', 'batch_count 2', 'batch_sum 5'].sort(),
    );
    histogram.reset();
    expect(await lines(registry)).toContain('batch_count 0');
  });

  it('refuses a second metric of the same name in a registry, as prom-client does', () => {
    const registry = new Registry();
    new HotCounter({ name: 'dup_total', help: 'd', labelNames: [], registry });
    expect(() => new HotCounter({ name: 'dup_total', help: 'd', labelNames: [], registry })).toThrow('already been registered');
  });
});
