// The PostgreSQL variant's pod environment (deploy/k8s/postgres/gateway.yaml: the image's ENV, the ConfigMaps,
// the Secrets, the container's env) starts a gateway on a real PostgreSQL: the connection string from the
// Secret reaches the PostgreSQL store, the catalog loads, the replica becomes ready and serves the catalog's
// model. Only the Secret's URL (a database of the test cluster), the upstream key, the catalog's path, the data
// directory and the port differ from the pod. Needs GATEWAY_TEST_POSTGRES_URL (test/postgres/with-postgres.sh).
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { find, loadManifests, POSTGRES_K8S_DIR } from './support/manifests';
import { documentedSecretValues, postgresPodEnv } from './support/postgres-variant';
import { createTestDatabase, withClient, type TestDatabase } from '../support/postgres-database';
import { startGatewayProcess, type GatewayProcess } from '../support/gateway-process';
import { waitFor } from '../postgres/support/wait-for';

jest.setTimeout(120_000);

describe('deploy/k8s/postgres: the gateway pod\'s environment on a real PostgreSQL', () => {
  const manifests = loadManifests(POSTGRES_K8S_DIR);
  let database: TestDatabase;
  let dir: string;
  let gateway: GatewayProcess | undefined;

  beforeAll(async () => {
    database = await createTestDatabase();
    dir = mkdtempSync(join(tmpdir(), 'gw-k8s-postgres-'));
    const catalogPath = join(dir, 'gateway.yaml');
    writeFileSync(catalogPath, find(manifests, 'ConfigMap', 'gateway-catalog').data!['gateway.yaml']);
    // gateway-secrets as its documented command creates it (generated secrets, and a key as a model server
    // would issue one in place of the placeholder); PORT 0: the test must not depend on 8080 being free here.
    const documented = documentedSecretValues(readFileSync(join(POSTGRES_K8S_DIR, 'gateway.yaml'), 'utf8'), 'gateway-secrets');
    const secrets = { ...documented, UPSTREAM_API_KEY: `sk-${randomBytes(24).toString('hex')}` };
    const env = { ...postgresPodEnv(manifests, database.url), ...secrets, GATEWAY_CONFIG: catalogPath, GATEWAY_DATA_DIR: join(dir, 'data'), PORT: '0' };
    gateway = await startGatewayProcess(env, 90_000);
  });

  afterAll(async () => {
    await gateway?.kill('SIGTERM');
    await database?.drop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('becomes ready on the PostgreSQL store and serves the catalog\'s model', async () => {
    const url = gateway!.url.replace('0.0.0.0', '127.0.0.1');
    expect((await fetch(`${url}/healthz`)).status).toBe(200);
    await waitFor('the replica ready', async () => (await fetch(`${url}/readyz`)).status === 200, 60_000);
    const tables = await withClient(database.url, (client) => client.query<{ name: string }>(`SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public'`));
    expect(tables.rows.map((row) => row.name)).toEqual(expect.arrayContaining(['gateway_events', 'gateway_store_identity']));
    const models = await fetch(`${url}/v1/models`);
    expect(models.status).toBe(200);
    expect(((await models.json()) as { data: { id: string }[] }).data.map((model) => model.id)).toContain('chat-small');
  });
});
