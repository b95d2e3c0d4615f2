// The PostgreSQL part of `npm run bench:store` (BENCH_STORE_POSTGRES_URL) measures what it says, on a
// tiny run: every writer count appends, events are two per append, the bytes are the table's, and each
// measurement's database is dropped afterwards. Figures are printed, never asserted.
import { measurePostgresFigures, postgresFiguresTable } from '../../bench/write-path/postgres-figures';
import { testPostgresUrl, withClient } from '../support/postgres-database';

const benchDatabases = (url: string) =>
  withClient(url, async (client) => (await client.query(`SELECT datname FROM pg_database WHERE datname LIKE 'gateway_bench_%'`)).rowCount);

it('measures the writer runs and the bytes per billed request on fresh databases, and drops them', async () => {
  const url = testPostgresUrl();
  const before = await benchDatabases(url);
  const figures = await measurePostgresFigures(url, { writeS: 0.3, bytesRequests: 40, coldAppends: 5, coldGapMs: 5 }, () => undefined, [1, 4]);
  console.log(postgresFiguresTable(figures));
  expect(figures.writePath.map((run) => run.writers)).toEqual([1, 4]);
  expect([figures.coldAppend.appends, figures.coldAppend.latencyMs.count]).toEqual([5, 5]);
  for (const run of figures.writePath) {
    expect(run.appends).toBeGreaterThan(0);
    expect(run.latencyMs.count).toBe(run.appends);
    expect(run.eventsPerSecond).toBeCloseTo(run.appendsPerSecond * 2);
  }
  expect(figures.bytesPerRequest.requests).toBe(40);
  expect(figures.bytesPerRequest.bytesPerRequest).toBe(Math.round(figures.bytesPerRequest.bytes / 40));
  expect(figures.bytesPerRequest.bytes).toBeGreaterThan(40 * 3 * 200);
  expect(await benchDatabases(url)).toBe(before);
}, 120_000);
