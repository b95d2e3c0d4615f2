// deploy/docker-compose.yml (issue 32): state in named volumes so `down`/`up` keeps the ledger, nothing
// published beyond loopback, KurrentDB with TLS and a password unless the explicitly named local override
// is added, one Kafka relay, health checks that gate start-up order.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse, parseDocument } from 'yaml';
import { healthcheckCommand, imageEnv } from './support/dockerfile';

const DEPLOY = join(__dirname, '..', '..', 'deploy');
const read = (file: string) => readFileSync(join(DEPLOY, file), 'utf8');
const compose = parse(read('docker-compose.yml'), { merge: true }) as { services: Record<string, any>; volumes: Record<string, unknown> };
const services = compose.services;
const gatewayNames = Object.keys(services).filter((name) => name.startsWith('gateway-'));

/** `!override` (Compose 2.24.4+) is a Compose tag: read the value under it as plain YAML. */
function parseOverride(text: string): { services: Record<string, any> } {
  const tags = ['map', 'seq'].map((collection) => ({ tag: '!override', collection, resolve: (value: unknown) => value }) as any);
  const doc = parseDocument(text, { customTags: tags, merge: true });
  if (doc.errors.length > 0) throw doc.errors[0];
  return doc.toJS() as { services: Record<string, any> };
}

const namedVolume = (service: any, target: string) =>
  (service.volumes as string[]).map((v) => v.split(':')).find(([source, mountedAt]) => mountedAt === target && !source.startsWith('.'))?.[0];

describe('docker compose: state survives down/up', () => {
  it.each(gatewayNames)('%s keeps the image\'s data directory in a volume of its own', (name) => {
    const volume = namedVolume(services[name], imageEnv().GATEWAY_DATA_DIR);
    expect(volume).toBe(`${name}-data`);
    expect(compose.volumes).toHaveProperty(volume!);
  });

  it('keeps KurrentDB\'s database and Kafka\'s log in named volumes', () => {
    expect(compose.volumes).toHaveProperty(namedVolume(services.kurrentdb, '/var/lib/kurrentdb')!);
    const kafkaDir = services.kafka.environment.KAFKA_LOG_DIRS;
    expect(compose.volumes).toHaveProperty(namedVolume(services.kafka, kafkaDir)!);
  });

  it('declares every named volume it mounts', () => {
    for (const service of Object.values(services)) {
      for (const [source] of ((service.volumes ?? []) as string[]).map((v) => v.split(':'))) {
        if (!source.startsWith('.')) expect(compose.volumes).toHaveProperty(source);
      }
    }
  });
});

describe('docker compose: exposure and security', () => {
  it('publishes every port on 127.0.0.1 only', () => {
    const published = Object.values(services).flatMap((service) => (service.ports ?? []) as string[]);
    expect(published).toContain('127.0.0.1:2113:2113');
    for (const port of published) expect(port).toMatch(/^127\.0\.0\.1:\d+:\d+$/);
  });

  it('runs KurrentDB with TLS, its certificate files mounted, and the admin password from the environment', () => {
    const env = services.kurrentdb.environment;
    expect(env.KURRENTDB_INSECURE).toBe('false');
    expect(env.KURRENTDB_DEFAULT_ADMIN_PASSWORD).toMatch(/^\$\{KURRENTDB_ADMIN_PASSWORD:\?/);
    const mounted = (services.kurrentdb.volumes as string[]).map((v) => v.split(':'));
    const covers = (path: string) => mounted.some(([, target]) => path === target || path.startsWith(`${target}/`));
    for (const file of [env.KURRENTDB_CERTIFICATE_FILE, env.KURRENTDB_CERTIFICATE_PRIVATE_KEY_FILE, `${env.KURRENTDB_TRUSTED_ROOT_CERTIFICATES_PATH}/ca.crt`]) expect(covers(file)).toBe(true);
  });

  it.each(gatewayNames)('%s verifies KurrentDB\'s certificate with the mounted CA and signs in', (name) => {
    const connection = services[name].environment.EVENTSTORE_CONNECTION_STRING as string;
    expect(connection).toMatch(/^esdb:\/\/admin:\$\{KURRENTDB_ADMIN_PASSWORD:\?[^}]*\}@kurrentdb:2113\?/);
    const query = new URLSearchParams(connection.split('?').pop());
    expect(query.get('tls')).toBe('true');
    expect(services[name].volumes).toContain(`./certs/ca/ca.crt:${query.get('tlsCAFile')}:ro`);
  });

  it('mounts certificates where deploy/kurrentdb-certs.sh writes them', () => {
    const script = read('kurrentdb-certs.sh');
    for (const file of ['ca/ca.crt', 'node/node.crt', 'node/node.key']) expect(script).toContain(`$out/${file}`);
    expect(services.kurrentdb.volumes).toEqual(expect.arrayContaining(['./certs/node:/etc/kurrentdb-tls/node:ro', './certs/ca/ca.crt:/etc/kurrentdb-tls/ca/ca.crt:ro']));
  });
});

describe('docker compose: the insecure local override', () => {
  const override = parseOverride(read('docker-compose.insecure-local.yml'));

  it('is the only place KurrentDB runs without TLS, and the gateways follow it', () => {
    expect(read('docker-compose.yml')).not.toMatch(/INSECURE: "true"|tls=false/);
    expect(override.services.kurrentdb.environment.KURRENTDB_INSECURE).toBe('true');
    for (const name of gatewayNames) expect(override.services[name].environment.EVENTSTORE_CONNECTION_STRING).toBe('esdb://kurrentdb:2113?tls=false');
  });

  it('keeps the loopback binding and the named volumes', () => {
    expect(override.services.kurrentdb.ports).toBeUndefined();
    expect(override.services.kurrentdb.volumes).toContain('kurrentdb-data:/var/lib/kurrentdb');
    for (const name of gatewayNames) expect(override.services[name].volumes).toContain(`${name}-data:${imageEnv().GATEWAY_DATA_DIR}`);
  });
});

describe('docker compose: relay and health', () => {
  it('relays to Kafka from exactly one gateway', () => {
    const relaying = gatewayNames.filter((name) => (services[name].environment.GATEWAY_KAFKA_RELAY ?? 'on') !== 'off');
    expect(relaying).toEqual(['gateway-1']);
    for (const name of gatewayNames) expect(services[name].environment.KAFKA_BROKERS).toBe('kafka:9092');
  });

  it('has a health check on every service (the gateways use the image\'s) and starts the gateways on healthy dependencies', () => {
    expect(healthcheckCommand()[0]).toBe('node');
    for (const [name, service] of Object.entries(services)) {
      if (!name.startsWith('gateway-')) expect({ name, test: service.healthcheck?.test?.[0] }).toEqual({ name, test: 'CMD-SHELL' });
    }
    for (const name of gatewayNames) {
      expect(services[name].depends_on).toEqual({ kurrentdb: { condition: 'service_healthy' }, kafka: { condition: 'service_healthy' } });
    }
  });
});
