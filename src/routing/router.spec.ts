// The router with attempts faked: which failures move to another deployment, which never do, and what
// is recorded for the charge. No I/O: an attempt is a function of the deployment it was sent to.
import type { Dispatcher } from 'undici';
import { Readable } from 'node:stream';
import { ApiError } from '../common/api-error';
import type { DeploymentConfig } from '../catalog/catalog.types';
import { fixtureModel } from '../../test/support/catalog-model.fixture';
import { AttemptFailed } from './attempt-outcome';
import { Router, isReplayable } from './router';

const deployment = (id: string): DeploymentConfig => ({ id, base_url: `http://127.0.0.1:1/${id}`, timeout_ms: 60_000, cold_start_seconds: 5, weight: 1 });
const model = () => fixtureModel({ deployments: [deployment('a'), deployment('b'), deployment('c')] });
const ok = (): Dispatcher.ResponseData => ({ statusCode: 200, headers: {}, body: Readable.from([]) }) as unknown as Dispatcher.ResponseData;
const who = { requestId: 'req-1', caller: { organizationId: 'org-a' } };
const failWith = (status: number | null, error: ApiError) => () => Promise.reject(new AttemptFailed(error, status));
const upstream5xx = () => ApiError.upstream('upstream_error', 'failed (HTTP 500)');

/** Attempts in order; `answers` by deployment id (default: served). */
function run(router: Router, answers: Record<string, () => Promise<Dispatcher.ResponseData>>, body = { replayable: true }, m = model()) {
  const tried: string[] = [];
  const result = router.route(m, body, who, async (d) => {
    tried.push(d.id);
    return (answers[d.id] ?? (async () => ok()))();
  });
  return { result, tried };
}

describe('the router', () => {
  it('fails a 5xx, a timeout, a refused connection, a 429 and a cold answer over to another deployment', async () => {
    for (const error of [upstream5xx(), ApiError.upstream('upstream_timeout', 't'), ApiError.unavailable('upstream_unreachable', 'u', 1), ApiError.unavailable('upstream_capacity', 'c', 1), ApiError.unavailable('model_cold', 'cold', 3)]) {
      const router = new Router(undefined, () => 0);
      const { result, tried } = run(router, { a: failWith(500, error) });
      await expect(result).resolves.toMatchObject({ statusCode: 200 });
      expect(tried).toEqual(['a', 'b']);
    }
  });

  it('never retries a rejected request, an aborted one or a body that cannot be sent again', async () => {
    const rejected = run(new Router(undefined, () => 0), { a: failWith(400, new ApiError(400, 'upstream_rejected_request', 'no', 'invalid_request_error')) });
    await expect(rejected.result).rejects.toMatchObject({ code: 'upstream_rejected_request' });
    expect(rejected.tried).toEqual(['a']);
    const aborted = run(new Router(undefined, () => 0), { a: failWith(null, new ApiError(499, 'client_closed_request', 'gone', 'invalid_request_error')) });
    await expect(aborted.result).rejects.toMatchObject({ code: 'client_closed_request' });
    expect(aborted.tried).toEqual(['a']);
    const stream = run(new Router(undefined, () => 0), { a: failWith(500, upstream5xx()) }, { replayable: isReplayable(Readable.from([])) });
    await expect(stream.result).rejects.toMatchObject({ code: 'upstream_error' });
    expect(stream.tried).toEqual(['a']);
    expect(isReplayable(Buffer.from('x'))).toBe(true);
  });

  it('answers the last error when every deployment failed, and records each attempt once for the charge', async () => {
    const router = new Router(undefined, () => 0);
    const failed: string[] = [];
    router.listen({ failedRequest: (id) => failed.push(id) });
    const { result, tried } = run(router, { a: failWith(500, upstream5xx()), b: failWith(502, upstream5xx()), c: failWith(503, ApiError.unavailable('upstream_unavailable', 'x', 1)) });
    await expect(result).rejects.toMatchObject({ code: 'upstream_unavailable' });
    expect(tried).toEqual(['a', 'b', 'c']);
    expect(failed).toEqual(['req-1']);
    const events = router.attempts.take('req-1', null, null);
    expect(events.map((e) => [e.id, (e.data as any).deploymentId, (e.data as any).outcome, (e.data as any).status])).toEqual([
      [expect.any(String), 'a', 'upstream_5xx', 500], [expect.any(String), 'b', 'upstream_5xx', 502], [expect.any(String), 'c', 'upstream_5xx', 503],
    ]);
    expect(new Set(events.map((e) => e.id)).size).toBe(3);
    expect(router.attempts.take('req-1', null, null)).toEqual([]);
  });

  it('stops retrying when the budget is spent: 3 a second on a quiet model', async () => {
    const router = new Router(undefined, () => 0);
    const all = { a: failWith(500, upstream5xx()), b: failWith(500, upstream5xx()), c: failWith(500, upstream5xx()) };
    const first = run(router, all);
    await expect(first.result).rejects.toBeDefined();
    const second = run(router, all);
    await expect(second.result).rejects.toBeDefined();
    // 2 retries in the first request, 1 left for the second (same second, ratio 20% of 2 requests = 0.4).
    expect([first.tried.length, second.tried.length]).toEqual([3, 2]);
  });

  it('answers 503 model_cold with the smallest cold start when every deployment is cold, without an attempt', async () => {
    const router = new Router(undefined, () => 0);
    const m = model();
    for (const id of ['a', 'b', 'c']) router.saidCold(m, id);
    const { result, tried } = run(router, {}, { replayable: true }, m);
    await expect(result).rejects.toMatchObject({ status: 503, code: 'model_cold', headers: { 'retry-after': '5' } });
    expect(tried).toEqual([]);
  });
});
