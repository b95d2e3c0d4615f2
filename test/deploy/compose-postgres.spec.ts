// deploy/docker-compose.postgres.yml: the two gateways on one PostgreSQL database, KurrentDB not started,
// the password from the environment, nothing published, a data volume per gateway, every relay on (the
// database elects one).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseDocument } from 'yaml';
import { imageEnv } from './support/dockerfile';

const DEPLOY = join(__dirname, '..', '..', 'deploy');
const tags = ['map', 'seq'].map((collection) => ({ tag: '!override', collection, resolve: (value: unknown) => value }) as any);
const doc = parseDocument(readFileSync(join(DEPLOY, 'docker-compose.postgres.yml'), 'utf8'), { customTags: tags, merge: true });
const override = doc.toJS() as { services: Record<string, any>; volumes: Record<string, unknown> };
const gatewayNames = ['gateway-1', 'gateway-2'];

describe('docker compose: the PostgreSQL variant', () => {
  it('parses', () => expect(doc.errors).toEqual([]));

  it('starts PostgreSQL instead of KurrentDB, unpublished, its data in a named volume and its password from the environment', () => {
    expect(override.services.kurrentdb.profiles).toEqual(['kurrentdb']);
    const postgres = override.services.postgres;
    expect(postgres.ports).toBeUndefined();
    expect(postgres.volumes).toEqual(['postgres-data:/var/lib/postgresql/data']);
    expect(override.volumes).toHaveProperty('postgres-data');
    expect(postgres.environment.POSTGRES_PASSWORD).toMatch(/^\$\{POSTGRES_PASSWORD:\?/);
  });

  it.each(gatewayNames)('%s uses the database (and not KurrentDB), keeps its own data volume and waits for PostgreSQL', (name) => {
    const gateway = override.services[name];
    expect(gateway.environment.GATEWAY_POSTGRES_URL).toBe('postgres://gateway@postgres:5432/gateway');
    expect(gateway.environment.PGPASSWORD).toMatch(/^\$\{POSTGRES_PASSWORD:\?/);
    expect(gateway.environment.EVENTSTORE_CONNECTION_STRING).toBe('');
    expect(gateway.volumes).toContain(`${name}-data:${imageEnv().GATEWAY_DATA_DIR}`);
    expect(Object.keys(gateway.depends_on).sort()).toEqual(['kafka', 'postgres']);
    expect(gateway.depends_on.postgres.condition).toBe('service_healthy');
  });

  it('keeps the Kafka relay on in every gateway: the relay lease elects one', () => {
    for (const name of gatewayNames) expect(override.services[name].environment.GATEWAY_KAFKA_RELAY).toBe('on');
  });
});
