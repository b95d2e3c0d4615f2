// The scrape configuration shipped in deploy/ points at what the gateway serves: the compose file's
// Prometheus scrapes every gateway replica on its port with the metrics token, and on Kubernetes the
// pod annotations and the ServiceMonitor name the gateway's port, path and token Secret.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse, parseAllDocuments } from 'yaml';
import { METRICS_PATH } from '../../src/observability/metrics/metrics-route';

const DEPLOY = join(__dirname, '..', '..', 'deploy');
const read = (path: string) => readFileSync(join(DEPLOY, path), 'utf8');

describe('docker compose + deploy/prometheus', () => {
  const compose = parse(read('docker-compose.yml'), { merge: true }) as { services: Record<string, any> };
  const prometheus = parse(read('prometheus/prometheus.yml')) as { scrape_configs: any[] };

  it('scrapes every gateway replica on its container port and metrics path', () => {
    const gateways = Object.keys(compose.services).filter((name) => name.startsWith('gateway-'));
    expect(gateways.length).toBeGreaterThanOrEqual(2);
    const [job] = prometheus.scrape_configs;
    expect(job.metrics_path).toBe(METRICS_PATH);
    expect(job.static_configs.flatMap((c: { targets: string[] }) => c.targets).sort()).toEqual(gateways.map((name) => `${name}:8080`).sort());
  });

  it('gives the gateways and Prometheus the same token, which Prometheus sends as a bearer', () => {
    const token = compose.services.prometheus.environment.GATEWAY_METRICS_TOKEN;
    for (const name of ['gateway-1', 'gateway-2']) expect(compose.services[name].environment.GATEWAY_METRICS_TOKEN).toBe(token);
    const [job] = prometheus.scrape_configs;
    expect(job.authorization).toEqual({ type: 'Bearer', credentials_file: '/tmp/metrics-token' });
    expect(compose.services.prometheus.entrypoint.join(' ')).toContain('> /tmp/metrics-token');
    expect(compose.services.prometheus.volumes).toContain('./prometheus/prometheus.yml:/etc/prometheus/prometheus.yml:ro');
  });
});

describe('docker compose + deploy/grafana', () => {
  const compose = parse(read('docker-compose.yml'), { merge: true }) as { services: Record<string, any> };

  it('provisions the compose file\'s Prometheus as the data source and loads the dashboard file', () => {
    const grafana = compose.services.grafana;
    const [provisioning, dashboard] = grafana.volumes as string[];
    expect(provisioning).toBe('./grafana/provisioning:/etc/grafana/provisioning:ro');
    const [source, mountedAt] = dashboard.split(':');
    expect(existsSync(join(DEPLOY, source))).toBe(true);
    const provider = parse(read('grafana/provisioning/dashboards/gateway.yml')).providers[0];
    expect(mountedAt.startsWith(`${provider.options.path}/`)).toBe(true);
    const datasource = parse(read('grafana/provisioning/datasources/prometheus.yml')).datasources[0];
    expect(datasource).toMatchObject({ type: 'prometheus', url: 'http://prometheus:9090' });
    expect(compose.services.prometheus.ports).toContain('127.0.0.1:9090:9090');
  });
});

describe('deploy/k8s', () => {
  const docs = ['k8s/gateway.yaml', 'k8s/relay.yaml'].flatMap((file) => parseAllDocuments(read(file)).map((doc) => doc.toJS()));
  const byName = (kind: string, name: string) => docs.find((doc) => doc.kind === kind && doc.metadata.name === name);
  const monitor = parse(read('k8s/servicemonitor.yaml'));
  const secretCommandKeys = () => [...read('k8s/gateway.yaml').matchAll(/--from-literal=([A-Z_]+)=/g)].map((m) => m[1]);

  it('ships no gateway-secrets Secret, only the command that creates it with generated values', () => {
    expect(byName('Secret', 'gateway-secrets')).toBeUndefined();
    expect(read('k8s/gateway.yaml')).toContain('kubectl create secret generic gateway-secrets');
    expect(secretCommandKeys()).toEqual(['UPSTREAM_API_KEY', 'GATEWAY_CURSOR_SECRET', 'GATEWAY_METRICS_TOKEN']);
    expect(read('k8s/gateway.yaml')).not.toMatch(/change-me/i);
  });

  it('annotates the pod template for scraping on the container port and metrics path', () => {
    const template = byName('StatefulSet', 'inference-gateway').spec.template;
    const port = template.spec.containers[0].ports[0].containerPort;
    expect(template.metadata.annotations).toEqual({ 'prometheus.io/scrape': 'true', 'prometheus.io/port': String(port), 'prometheus.io/path': METRICS_PATH });
  });

  it.each(['inference-gateway', 'inference-gateway-relay'])('has a ServiceMonitor selecting the %s Service by its labels, on its named port, with the Secret\'s token', (name) => {
    const service = byName('Service', name);
    expect(monitor.kind).toBe('ServiceMonitor');
    expect(service.metadata.labels).toMatchObject(monitor.spec.selector.matchLabels);
    const [endpoint] = monitor.spec.endpoints;
    expect(service.spec.ports.map((p: { name: string }) => p.name)).toContain(endpoint.port);
    expect(endpoint.path).toBe(METRICS_PATH);
    // The Secret is created by the command in gateway.yaml's header, never shipped with placeholder values.
    expect(endpoint.bearerTokenSecret.name).toBe('gateway-secrets');
    expect(secretCommandKeys()).toContain(endpoint.bearerTokenSecret.key);
  });

  it('scrapes each gateway process once: the StatefulSet\'s headless Service is not selected', () => {
    const headless = docs.find((doc) => doc.kind === 'Service' && doc.spec.clusterIP === 'None' && doc.spec.selector.app === 'inference-gateway');
    expect(headless).toBeDefined();
    expect(headless.metadata.labels).not.toMatchObject(monitor.spec.selector.matchLabels);
  });
});
