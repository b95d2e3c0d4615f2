// The catalog shipped in deploy/k8s must pass the gateway's own loader (schema + semantics) with the
// environment the pods get, or every pod exits at start-up (issue 32: `models: must NOT have fewer than 1 items`).
import { dirname, posix } from 'node:path';
import { ConfigError, parseConfigText } from '../../src/config/load-config';
import { containerEnv, containersOf, find, loadManifests, workloads } from './support/manifests';

const manifests = loadManifests();
const catalogMap = find(manifests, 'ConfigMap', 'gateway-catalog');
const gatewayContainers = workloads(manifests).flatMap((w) => containersOf(w).filter((c) => /\/inference-gateway:/.test(c.image)).map((c) => [w.metadata.name, c, w] as const));

describe.each(gatewayContainers)('%s', (_name, container, workload) => {
  const env = containerEnv(manifests, container);

  it('mounts the catalog ConfigMap where GATEWAY_CONFIG points', () => {
    const path = env.GATEWAY_CONFIG;
    const mount = (container.volumeMounts as { name: string; mountPath: string }[]).find((m) => m.mountPath === dirname(path))!;
    const volume = workload.spec.template.spec.volumes.find((v: { name: string }) => v.name === mount.name);
    expect(volume.configMap.name).toBe(catalogMap.metadata.name);
    expect(Object.keys(catalogMap.data!)).toContain(posix.basename(path));
  });

  it('loads the catalog with the gateway\'s validator and the pod\'s environment', () => {
    const config = parseConfigText(catalogMap.data!['gateway.yaml'], 'deploy/k8s ConfigMap gateway-catalog', env);
    expect(config.models.length).toBeGreaterThanOrEqual(1);
    expect(config.organizations.length).toBeGreaterThanOrEqual(1);
    for (const model of config.models) {
      expect(model.upstream.base_url).toBe(env.UPSTREAM_BASE_URL);
      expect(model.upstream.api_key).toBe(env.UPSTREAM_API_KEY);
    }
  });
});

it('refuses the catalog that shipped before (no models), so the check above can fail', () => {
  const empty = 'price_book_version: "2026-11-01"\nmodels: []\norganizations: []\nkeys: []\n';
  expect(() => parseConfigText(empty, 'old ConfigMap', {})).toThrow(ConfigError);
  expect(() => parseConfigText(empty, 'old ConfigMap', {})).toThrow('models: must NOT have fewer than 1 items');
});

it('refuses the catalog when the pod lacks a variable it references', () => {
  expect(() => parseConfigText(catalogMap.data!['gateway.yaml'], 'ConfigMap', {})).toThrow('environment variable UPSTREAM_BASE_URL is referenced but not set');
});
