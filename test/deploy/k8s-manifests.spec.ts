// Static checks of deploy/k8s (issue 32): what makes pods start, stay up while they catch up, survive
// restarts and disruptions, run unprivileged, and relay to Kafka exactly once per store.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { imageEnv, ROOT } from './support/dockerfile';
import { containerEnv, containersOf, find, loadManifests, POSTGRES_K8S_DIR, workloads, type Manifest } from './support/manifests';

const manifests = loadManifests();
const allWorkloads = workloads(manifests);
const version = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
const isGateway = (workload: Manifest) => containersOf(workload).some((c) => /\/inference-gateway:/.test(c.image));
const gateways = allWorkloads.filter(isGateway);
// The PostgreSQL variant's gateway passes the same container checks (k8s-postgres.spec.ts checks the rest).
const postgresGateways = workloads(loadManifests(POSTGRES_K8S_DIR)).filter(isGateway).map((w) => ({ ...w, file: `postgres/${w.file}` }));
const containers = [...allWorkloads, ...postgresGateways].flatMap((w) => containersOf(w).map((c) => [`${w.file}: ${w.kind} ${w.metadata.name} / ${c.name}`, c, w] as const));
const gatewayContainers = gateways.flatMap((w) => containersOf(w).map((c) => [`${w.kind} ${w.metadata.name}`, c, w] as const));
const seconds = (probe: any) => (probe.periodSeconds ?? 10) * (probe.failureThreshold ?? 3);

it('has the gateway workloads and the KurrentDB store', () => {
  expect(gateways.map((w) => `${w.kind}/${w.metadata.name}`).sort()).toEqual(['Deployment/inference-gateway-relay', 'StatefulSet/inference-gateway']);
  expect(find(manifests, 'StatefulSet', 'kurrentdb')).toBeDefined();
});

describe.each(containers)('%s', (_name, container, workload) => {
  const pod = workload.spec.template.spec;

  it('runs unprivileged: non-root, no privilege escalation, every capability dropped', () => {
    expect(pod.securityContext?.runAsNonRoot ?? container.securityContext?.runAsNonRoot).toBe(true);
    expect(container.securityContext.allowPrivilegeEscalation).toBe(false);
    expect(container.securityContext.capabilities.drop).toEqual(['ALL']);
    expect(typeof container.securityContext.readOnlyRootFilesystem).toBe('boolean');
  });

  it('has a startup probe separate from liveness, and liveness only once started', () => {
    const { startupProbe, livenessProbe, readinessProbe } = container;
    expect(startupProbe).toBeDefined();
    expect(livenessProbe).toBeDefined();
    expect(readinessProbe).toBeDefined();
    expect(livenessProbe.initialDelaySeconds ?? 0).toBe(0);
    expect(seconds(startupProbe)).toBeGreaterThan(seconds(livenessProbe) * 10);
  });

  it('gives every probe a timeout that fits within its period', () => {
    for (const probe of [container.startupProbe, container.livenessProbe, container.readinessProbe]) {
      expect(probe.timeoutSeconds).toBeGreaterThanOrEqual(2);
      expect(probe.timeoutSeconds).toBeLessThan(probe.periodSeconds);
    }
  });

  it('has resource requests and a memory limit', () => {
    expect(container.resources.requests).toEqual(expect.objectContaining({ cpu: expect.anything(), memory: expect.anything() }));
    expect(container.resources.limits.memory).toBeDefined();
  });

  it('pauses before SIGTERM so endpoints drop the pod first, within the grace period', () => {
    const command = container.lifecycle.preStop.exec.command as string[];
    expect(command[0]).toBe('sleep');
    expect(Number(command[1])).toBeGreaterThan(0);
    expect(pod.terminationGracePeriodSeconds).toBeGreaterThan(Number(command[1]) + 30);
  });

  it('pulls a registry-qualified, versioned image', () => {
    const [registry] = container.image.split('/');
    expect(container.image.split('/').length).toBeGreaterThanOrEqual(2);
    expect(registry).toMatch(/[.:]/);
    expect(container.image).toMatch(/:\d+\.\d+(\.\d+)?$/);
  });
});

describe.each(gatewayContainers)('gateway in %s', (_name, container, workload) => {
  const pod = workload.spec.template.spec;
  const mounts = container.volumeMounts as { name: string; mountPath: string }[];
  const dataDir = imageEnv().GATEWAY_DATA_DIR;

  it('runs the image of this package version as the image\'s node user (uid 1000), on the image\'s port', () => {
    expect(container.image).toBe(`ghcr.io/example-org/inference-gateway:${version}`);
    expect(pod.securityContext).toMatchObject({ runAsUser: 1000, runAsGroup: 1000, fsGroup: 1000 });
    expect(container.ports[0].containerPort).toBe(Number(imageEnv().PORT));
  });

  it('keeps the data directory on a persistent volume', () => {
    const mount = mounts.find((m) => m.mountPath === dataDir)!;
    expect(mount).toBeDefined();
    const claimTemplates = (workload.spec.volumeClaimTemplates ?? []).map((t: Manifest) => t.metadata.name);
    const volume = (pod.volumes ?? []).find((v: { name: string }) => v.name === mount.name);
    const claim = volume?.persistentVolumeClaim?.claimName;
    expect(claimTemplates.includes(mount.name) || (claim && find(manifests, 'PersistentVolumeClaim', claim))).toBeTruthy();
  });

  it('has a read-only root filesystem with writable /tmp (media conversion) besides the data volume', () => {
    expect(container.securityContext.readOnlyRootFilesystem).toBe(true);
    const tmp = mounts.find((m) => m.mountPath === '/tmp')!;
    expect(pod.volumes.find((v: { name: string }) => v.name === tmp.name).emptyDir).toBeDefined();
  });

  it('probes /healthz for start-up and liveness and /readyz for readiness', () => {
    expect(container.startupProbe.httpGet.path).toBe('/healthz');
    expect(container.livenessProbe.httpGet.path).toBe('/healthz');
    expect(container.readinessProbe.httpGet.path).toBe('/readyz');
    expect(container.readinessProbe.timeoutSeconds).toBeGreaterThanOrEqual(3);
    expect(seconds(container.startupProbe)).toBeGreaterThanOrEqual(30 * 60);
  });

  it('reaches KurrentDB over TLS verified against the mounted CA, with credentials from a Secret', () => {
    const env = containerEnv(manifests, container);
    const url = new URL(env.EVENTSTORE_CONNECTION_STRING);
    expect(url.searchParams.get('tls')).toBe('true');
    const caFile = url.searchParams.get('tlsCAFile')!;
    const caMount = mounts.find((m) => caFile.startsWith(`${m.mountPath}/`))!;
    const caVolume = pod.volumes.find((v: { name: string }) => v.name === caMount.name);
    expect(caVolume.secret.items).toEqual([{ key: 'ca.crt', path: caFile.slice(caMount.mountPath.length + 1) }]);
    const secretRefs = (container.env as any[]).filter((e) => e.valueFrom?.secretKeyRef).map((e) => e.name);
    expect(secretRefs).toEqual(expect.arrayContaining(['KURRENTDB_USERNAME', 'KURRENTDB_PASSWORD']));
    expect(decodeURIComponent(url.password)).toBe(env.KURRENTDB_PASSWORD);
  });
});

describe('one Kafka relay per store', () => {
  const relayOn = (workload: Manifest) => containersOf(workload).some((c) => (containerEnv(manifests, c).GATEWAY_KAFKA_RELAY ?? 'on') !== 'off');

  it('has brokers configured everywhere, but exactly one gateway process relaying', () => {
    for (const workload of gateways) for (const c of containersOf(workload)) expect(containerEnv(manifests, c).KAFKA_BROKERS).toBeTruthy();
    const relaying = gateways.filter(relayOn);
    expect(relaying.map((w) => w.metadata.name)).toEqual(['inference-gateway-relay']);
    expect(relaying.reduce((sum, w) => sum + w.spec.replicas, 0)).toBe(1);
  });

  it('never runs two relays during a rollout (Recreate) and keeps the serving replicas switched off explicitly', () => {
    const relay = find(manifests, 'Deployment', 'inference-gateway-relay');
    expect(relay.spec.strategy).toEqual({ type: 'Recreate' });
    const serving = find(manifests, 'StatefulSet', 'inference-gateway');
    expect(serving.spec.replicas).toBeGreaterThanOrEqual(2);
    expect(containerEnv(manifests, serving.spec.template.spec.containers[0]).GATEWAY_KAFKA_RELAY).toBe('off');
  });

  it('keeps the relay out of the client-facing Service', () => {
    const service = find(manifests, 'Service', 'inference-gateway');
    const relayLabels = find(manifests, 'Deployment', 'inference-gateway-relay').spec.template.metadata.labels;
    expect(Object.entries(service.spec.selector).every(([key, value]) => relayLabels[key] === value)).toBe(false);
  });
});

describe('disruptions and services', () => {
  it('has a PodDisruptionBudget for the serving replicas that still lets one go', () => {
    const serving = find(manifests, 'StatefulSet', 'inference-gateway');
    const budget = manifests.find((m) => m.kind === 'PodDisruptionBudget' && m.spec.selector.matchLabels.app === serving.spec.template.metadata.labels.app)!;
    expect(budget).toBeDefined();
    expect(budget.spec.minAvailable).toBeGreaterThanOrEqual(1);
    expect(budget.spec.minAvailable).toBeLessThan(serving.spec.replicas);
  });

  it('selects existing pods with every Service', () => {
    const podLabels = allWorkloads.map((w) => w.spec.template.metadata.labels as Record<string, string>);
    for (const service of manifests.filter((m) => m.kind === 'Service')) {
      const selector = service.spec.selector as Record<string, string>;
      expect({ service: service.metadata.name, matches: podLabels.some((labels) => Object.entries(selector).every(([k, v]) => labels[k] === v)) }).toEqual({
        service: service.metadata.name,
        matches: true,
      });
    }
  });

  it('runs KurrentDB with TLS and its admin password from a Secret, never insecure', () => {
    const kurrent = find(manifests, 'StatefulSet', 'kurrentdb').spec.template.spec.containers[0];
    const env = Object.fromEntries((kurrent.env as any[]).map((e) => [e.name, e.value ?? e.valueFrom]));
    expect(env.KURRENTDB_INSECURE).toBe('false');
    expect(env.KURRENTDB_CERTIFICATE_FILE).toBeDefined();
    expect(env.KURRENTDB_DEFAULT_ADMIN_PASSWORD).toEqual({ secretKeyRef: { name: 'kurrentdb-credentials', key: 'password' } });
    const text = manifests.map((m) => JSON.stringify(m)).join('\n');
    expect(text).not.toMatch(/tls=false|INSECURE","value":"true"/);
  });
});
