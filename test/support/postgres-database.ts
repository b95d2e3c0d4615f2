// A database of its own for one test file, on the cluster GATEWAY_TEST_POSTGRES_URL points at
// (test/postgres/with-postgres.sh): tests that count every event of the store, or install test-only
// triggers, cannot share the contract suite's database.
import { randomUUID } from 'node:crypto';
import { Client } from 'pg';

export interface TestDatabase {
  url: string;
  drop(): Promise<void>;
}

export function testPostgresUrl(): string {
  const url = process.env.GATEWAY_TEST_POSTGRES_URL;
  if (!url) throw new Error('GATEWAY_TEST_POSTGRES_URL is not set: there is no PostgreSQL to test against (test/postgres/with-postgres.sh)');
  return url;
}

export async function createTestDatabase(baseUrl: string = testPostgresUrl()): Promise<TestDatabase> {
  const name = `gateway_test_${randomUUID().replace(/-/g, '')}`;
  await withClient(baseUrl, (client) => client.query(`CREATE DATABASE ${name}`));
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: () => withClient(baseUrl, (client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).then(() => undefined),
  };
}

export async function withClient<T>(url: string, work: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}
