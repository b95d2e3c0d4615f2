import { areaOfSymbol, summarizePerfScript } from '../../bench/profile/perf-samples';

// Three samples in the shape `perf script -F tid,ip,sym` prints them (leaf frame first).
const SCRIPT = `
 5809 
\t    7f372825c01d v8::internal::JsonStringifier::SerializeString
\t    7f372825c01e JS:*serialize /repo/dist/src/event-store/sqlite/sqlite-event-store.js:91:18
\t    7f3728321140 JS:*processTicksAndRejections node:internal/process/task_queues:67:35

 5809 
\t         14ce0dc writev
\t    7f372823afa2 JS:*doWrite node:internal/streams/writable:587:17
\t    7f372823afa3 JS:^request /repo/node_modules/undici/lib/api/api-request.js:10:1

 5817 
\t          c494db v8::internal::Scavenger::ScavengeObject
\t          c4a574 v8::platform::DefaultJobWorker::Run

 5809 
\t    7f3728321141 JS:~validate /repo/node_modules/@nestjs/core/pipes/pipes-consumer.js:7:3
`;

describe('perf script summary', () => {
  it('charges each sample to its nearest JavaScript frame’s area, per thread, largest first', () => {
    expect(summarizePerfScript(SCRIPT.split('\n'))).toEqual([
      expect.objectContaining({ tid: 5809, samples: 3, areas: [['src/event-store', 1], ['node:internal/streams', 1], ['@nestjs/core', 1]] }),
      expect.objectContaining({ tid: 5817, samples: 1, areas: [['(GC)', 1]] }),
    ]);
  });

  it('charges each sample to its nearest JavaScript function and to its leaf frame', () => {
    const [main, helper] = summarizePerfScript(SCRIPT.split('\n'));
    expect(main.functions).toEqual([
      ['serialize src/event-store/sqlite/sqlite-event-store.js', 1],
      ['doWrite node:internal/streams/writable', 1],
      ['validate node_modules/@nestjs/core/pipes/pipes-consumer.js', 1],
    ]);
    expect(main.leaves).toEqual([
      ['v8::internal::JsonStringifier::SerializeString', 1],
      ['writev', 1],
      ['validate node_modules/@nestjs/core/pipes/pipes-consumer.js', 1],
    ]);
    expect(helper.functions).toEqual([['(GC)', 1]]);
  });

  it('names areas by package, src folder or Node module', () => {
    expect(areaOfSymbol('JS:*price /r/dist/src/billing/pricing/price.js:9:15')).toBe('src/billing');
    expect(areaOfSymbol('JS:*Decimal /r/node_modules/decimal.js/decimal.js:4292:21')).toBe('decimal.js');
    expect(areaOfSymbol('JS:*_storeHeader node:_http_outgoing:410:22')).toBe('node:_http_outgoing');
    expect(areaOfSymbol('Builtins_LoadIC')).toBeNull();
  });
});
