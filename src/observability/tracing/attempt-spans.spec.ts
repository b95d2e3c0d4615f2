// One span per attempt, a child of the active upstream span, with the deployment and outcome.
import { context, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import { fixtureModel } from '../../../test/support/catalog-model.fixture';
import { ATTEMPT_SPAN, attemptSpans } from './attempt-spans';

describe('attempt spans', () => {
  it('records each attempt as a child of the upstream call, with its deployment and outcome', () => {
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
    const exporter = new InMemorySpanExporter();
    const tracer = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] }).getTracer('test');
    const listener = attemptSpans(tracer, () => 10_000);
    const call = tracer.startSpan('chat aria');
    context.with(trace.setSpan(context.active(), call), () => {
      listener.attempted!(fixtureModel({ id: 'aria' }), 'sim-a', 'upstream_5xx', 0.25);
      listener.attempted!(fixtureModel({ id: 'aria' }), 'sim-b', 'served', 0.1);
    });
    call.end();
    const attempts = exporter.getFinishedSpans().filter((s) => s.name === ATTEMPT_SPAN);
    expect(attempts.map((s) => [s.attributes['gateway.deployment.id'], s.attributes['gateway.attempt.outcome'], s.status.code])).toEqual([['sim-a', 'upstream_5xx', 2], ['sim-b', 'served', 0]]);
    expect(attempts.every((s) => s.parentSpanContext?.spanId === call.spanContext().spanId)).toBe(true);
    expect(attempts[0].duration).toEqual([0, 250_000_000]);
    context.disable();
  });
});
