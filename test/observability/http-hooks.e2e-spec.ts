// The Fastify hooks alone on a bare server through real HTTP: route patterns as labels, first-byte
// timing for streamed answers only.
import { Readable } from 'node:stream';
import Fastify from 'fastify';
import { Registry } from 'prom-client';
import { recordHttpMetrics } from '../../src/observability/metrics/http-hooks';
import { HttpMetrics } from '../../src/observability/metrics/http-metrics';

async function samples(registry: Registry): Promise<string[]> {
  return (await registry.metrics()).split('\n').filter((line) => line.startsWith('gateway_') && !line.includes('_bucket'));
}

describe('recordHttpMetrics', () => {
  const registry = new Registry();
  const app = Fastify();
  beforeAll(async () => {
    recordHttpMetrics(app, new HttpMetrics(registry));
    app.get('/v1/items/:id', async () => ({ ok: true }));
    app.post('/v1/stream', async (_request, reply) => reply.header('content-type', 'text/event-stream').send(Readable.from(['data: 1\n\n', 'data: 2\n\n'])));
    const url = await app.listen({ port: 0, host: '127.0.0.1' });
    for (const [method, path] of [['GET', '/v1/items/req-1234'], ['GET', '/v1/items/req-5678?x=1'], ['POST', '/v1/stream'], ['GET', '/v1/no/such/path/abc']]) {
      await (await fetch(`${url}${path}`, { method })).text();
    }
  });
  afterAll(() => app.close());

  it('labels requests with the route pattern, never the URL, and unknown paths as unmatched', async () => {
    const lines = await samples(registry);
    expect(lines).toContain('gateway_http_requests_total{route="/v1/items/:id",method="GET",status="200"} 2');
    expect(lines).toContain('gateway_http_requests_total{route="unmatched",method="GET",status="404"} 1');
    expect(lines.join('\n')).not.toMatch(/req-1234|abc/);
  });

  it('times the first byte of streamed answers only', async () => {
    const lines = await samples(registry);
    expect(lines).toContain('gateway_http_time_to_first_byte_seconds_count{route="/v1/stream",method="POST"} 1');
    expect(lines.filter((line) => line.startsWith('gateway_http_time_to_first_byte_seconds_count'))).toHaveLength(1);
    expect(lines).toContain('gateway_http_request_duration_seconds_count{route="/v1/stream",method="POST"} 1');
  });
});
