// A stand-in for GET /v1/organization/costs with the spec's page shape, two buckets per page so the
// reconcile CLI has to follow next_page. It answers from the daily micros it is given.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeCostApi {
  url: string;
  requests: { authorization?: string; organization?: string }[];
  close(): Promise<void>;
}

const BUCKETS_PER_PAGE = 2;

function page(dailyMicros: Map<string, number>, url: URL) {
  const start = Number(url.searchParams.get('start_time'));
  const end = Number(url.searchParams.get('end_time') ?? Math.floor(Date.now() / 1000));
  const days = [...dailyMicros.keys()].sort().filter((day) => {
    const seconds = Date.parse(`${day}T00:00:00Z`) / 1000;
    return seconds >= start && seconds < end;
  });
  const offset = Number(url.searchParams.get('page') ?? 0);
  const slice = days.slice(offset, offset + BUCKETS_PER_PAGE);
  const hasMore = offset + BUCKETS_PER_PAGE < days.length;
  return {
    object: 'page',
    data: slice.map((day) => ({
      object: 'bucket',
      start_time: Date.parse(`${day}T00:00:00Z`) / 1000,
      end_time: Date.parse(`${day}T00:00:00Z`) / 1000 + 86_400,
      results: [{ object: 'organization.costs.result', amount: { value: (dailyMicros.get(day) ?? 0) / 1e6, currency: 'usd' }, line_item: null }],
    })),
    has_more: hasMore,
    next_page: hasMore ? String(offset + BUCKETS_PER_PAGE) : null,
  };
}

export async function startFakeCostApi(dailyMicros: Map<string, number>): Promise<FakeCostApi> {
  const requests: FakeCostApi['requests'] = [];
  const server: Server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    requests.push({ authorization: request.headers.authorization, organization: request.headers['x-organization-id'] as string | undefined });
    if (url.pathname !== '/v1/organization/costs') {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(page(dailyMicros, url)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, requests, close: () => new Promise((resolve) => server.close(() => resolve())) };
}
