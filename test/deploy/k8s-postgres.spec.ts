// Static checks of deploy/k8s/postgres/ (issue 42): three replicas on one PostgreSQL whose connection string
// comes from a Secret, each with its own data volume, every relay on (the database elects one), no KurrentDB
// left over, the pod's variables ones the gateway reads, and the trial database clearly labelled as such.
// k8s-manifests.spec.ts runs its container checks on this gateway too; k8s-postgres-start.int-spec.ts starts
// the gateway with this pod's environment on a real PostgreSQL.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readRuntimeEnv } from '../../src/config/gateway-config';
import { relaySwitchedOn } from '../../src/kafka/relay/kafka-relay.factory';
import { imageEnv, ROOT } from './support/dockerfile';
import { containerEnv, containersOf, find, loadManifests, POSTGRES_K8S_DIR, workloads, type Manifest } from './support/manifests';
import { documentedLiteral, postgresPodEnv } from './support/postgres-variant';

const manifests = loadManifests(POSTGRES_K8S_DIR);
const kurrentDbVariant = loadManifests();
const gatewayText = readFileSync(join(POSTGRES_K8S_DIR, 'gateway.yaml'), 'utf8');
const trialText = readFileSync(join(POSTGRES_K8S_DIR, 'postgres-trial.yaml'), 'utf8');
const serving = find(manifests, 'StatefulSet', 'inference-gateway');
const pod = serving.spec.template.spec;
const gateway = pod.containers[0];
const env = containerEnv(manifests, gateway);
const mounts = gateway.volumeMounts as { name: string; mountPath: string }[];

describe('deploy/k8s/postgres: the gateway on PostgreSQL', () => {
  it('runs three serving replicas of the gateway image and nothing of KurrentDB or its separate relay', () => {
    const gateways = workloads(manifests).filter((w) => containersOf(w).some((c) => /\/inference-gateway:/.test(c.image)));
    expect(gateways.map((w) => `${w.kind}/${w.metadata.name}`)).toEqual(['StatefulSet/inference-gateway']);
    expect(serving.spec.replicas).toBe(3);
    expect(manifests.some((m) => /kurrentdb/i.test(m.metadata.name))).toBe(false);
    expect(JSON.stringify(serving)).not.toMatch(/KURRENTDB|EVENTSTORE|esdb:/);
  });

  it('ships the KurrentDB variant\'s catalog and settings unchanged, so either file replaces the other', () => {
    for (const name of ['gateway-catalog', 'gateway-env']) expect(find(manifests, 'ConfigMap', name).data).toEqual(find(kurrentDbVariant, 'ConfigMap', name).data);
    expect(find(manifests, 'ConfigMap', 'gateway-catalog').data!['gateway.yaml']).toContain('models:');
  });

  it('reads GATEWAY_POSTGRES_URL from a Secret whose creation the header documents, never from a ConfigMap', () => {
    const entry = (gateway.env as any[]).find((e) => e.name === 'GATEWAY_POSTGRES_URL');
    expect(entry.valueFrom).toEqual({ secretKeyRef: { name: 'gateway-postgres', key: 'url' } });
    for (const map of manifests.filter((m) => m.kind === 'ConfigMap')) expect(Object.keys(map.data ?? {})).not.toContain('GATEWAY_POSTGRES_URL');
    const url = new URL(documentedLiteral(gatewayText, 'gateway-postgres', 'url'));
    expect(url.protocol).toBe('postgres:');
    expect(url.searchParams.get('sslmode')).toBe('verify-full');
    expect(manifests.some((m) => m.kind === 'Secret' && m.file === 'gateway.yaml')).toBe(false); // none shipped, only documented
  });

  it('sets only variables the gateway reads (a misspelt one would be silently ignored)', () => {
    const catalog = find(manifests, 'ConfigMap', 'gateway-catalog').data!['gateway.yaml'];
    const source = sourceText();
    const unknown = Object.keys(env).filter((name) => !source.includes(name) && !catalog.includes(`\${${name}}`));
    expect(unknown).toEqual([]);
    expect(source.includes('GATEWAY_POSTGRES_URI')).toBe(false); // the check can fail
  });

  it('configures what the gateway reads: PostgreSQL (not KurrentDB), a valid pool size, brokers and the relay on', () => {
    const runtime = readRuntimeEnv(postgresPodEnv(manifests, documentedLiteral(gatewayText, 'gateway-postgres', 'url')));
    expect(runtime.postgres).toEqual({ url: expect.stringMatching(/^postgres:\/\//), poolSize: 10 });
    expect(runtime.eventStoreConnectionString).toBeNull();
    expect(runtime.kafkaBrokers.length).toBeGreaterThan(0);
    expect(runtime.dataDir).toBe(imageEnv().GATEWAY_DATA_DIR);
    expect(relaySwitchedOn(env)).toBe(true);
  });

  it('keeps a persistent data volume per replica (read models and billing spool are never shared on PostgreSQL)', () => {
    const data = mounts.find((m) => m.mountPath === imageEnv().GATEWAY_DATA_DIR)!;
    expect(serving.spec.volumeClaimTemplates.map((t: Manifest) => t.metadata.name)).toEqual([data.name]);
    expect(serving.spec.volumeClaimTemplates[0].spec.accessModes).toEqual(['ReadWriteOnce']);
    expect(pod.volumes.map((v: { name: string }) => v.name)).not.toContain(data.name);
  });

  it('probes as the KurrentDB variant does, readiness timed as the relay pod\'s (every replica may relay)', () => {
    const kurrentGateway = find(kurrentDbVariant, 'StatefulSet', 'inference-gateway').spec.template.spec.containers[0];
    const relay = find(kurrentDbVariant, 'Deployment', 'inference-gateway-relay').spec.template.spec.containers[0];
    expect(gateway.startupProbe).toEqual(kurrentGateway.startupProbe);
    expect(gateway.livenessProbe).toEqual(kurrentGateway.livenessProbe);
    expect(gateway.readinessProbe).toEqual(relay.readinessProbe);
  });

  it('mounts the catalog where GATEWAY_CONFIG points and nothing of KurrentDB\'s TLS', () => {
    const catalogMount = mounts.find((m) => env.GATEWAY_CONFIG.startsWith(`${m.mountPath}/`))!;
    expect(pod.volumes.find((v: { name: string }) => v.name === catalogMount.name).configMap.name).toBe('gateway-catalog');
    expect(pod.volumes.some((v: any) => v.secret)).toBe(false);
  });

  it('spreads the replicas over nodes and lets a drain take one of three at a time', () => {
    expect(pod.topologySpreadConstraints[0]).toMatchObject({ topologyKey: 'kubernetes.io/hostname', labelSelector: { matchLabels: serving.spec.selector.matchLabels } });
    const budget = find(manifests, 'PodDisruptionBudget', 'inference-gateway');
    expect(budget.spec.selector.matchLabels).toEqual(serving.spec.selector.matchLabels);
    expect(budget.spec.minAvailable).toBe(serving.spec.replicas - 1);
  });

  it('says PostgreSQL itself is the operator\'s (managed service or an operator such as CloudNativePG)', () => {
    expect(gatewayText).toMatch(/managed service/);
    expect(gatewayText).toMatch(/CloudNativePG/);
    expect(gatewayText).toMatch(/FOR TRIALS ONLY/);
  });
});

describe('deploy/k8s/postgres/postgres-trial.yaml: a database for trials only', () => {
  const trial = find(manifests, 'StatefulSet', 'postgres-trial');
  const container = trial.spec.template.spec.containers[0];
  const trialEnv = Object.fromEntries((container.env as any[]).map((e) => [e.name, e.value ?? e.valueFrom]));

  it('is labelled and annotated as trial-only, and its header says what it lacks', () => {
    expect(trialText.split('\n')[0]).toMatch(/^# FOR TRIALS ONLY/);
    expect(trialText).toMatch(/no backups/);
    expect(trial.metadata.labels!['inference-gateway/purpose']).toBe('trial-only');
    expect(trial.spec.template.metadata.labels['inference-gateway/purpose']).toBe('trial-only');
    expect(trial.metadata.annotations!['inference-gateway/warning']).toMatch(/trials only/i);
    expect(trial.spec.replicas).toBe(1);
  });

  it('is what the documented gateway-postgres url points at: its Service, port, database and user', () => {
    const url = new URL(documentedLiteral(trialText, 'gateway-postgres', 'url').replace('$PASSWORD', 'hex'));
    const service = find(manifests, 'Service', url.hostname);
    expect(service.spec.selector).toEqual(trial.spec.selector.matchLabels);
    expect(service.spec.ports[0].port).toBe(Number(url.port));
    expect(url.pathname).toBe(`/${trialEnv.POSTGRES_DB}`);
    expect(url.username).toBe(trialEnv.POSTGRES_USER);
    expect(trialText).toMatch(/--from-literal=password="\$PASSWORD"/);
    expect(trialEnv.POSTGRES_PASSWORD).toEqual({ secretKeyRef: { name: 'postgres-trial', key: 'password' } });
  });

  it('keeps its data on a persistent volume, in a subdirectory (initdb refuses a lost+found)', () => {
    const data = (container.volumeMounts as { name: string; mountPath: string }[]).find((m) => m.name === 'data')!;
    expect(trial.spec.volumeClaimTemplates[0].metadata.name).toBe('data');
    expect(trialEnv.PGDATA.startsWith(`${data.mountPath}/`)).toBe(true);
  });

  it('runs unprivileged, is probed with pg_isready, and stops with a fast shutdown within its grace period', () => {
    expect(trial.spec.template.spec.securityContext).toMatchObject({ runAsNonRoot: true, runAsUser: 999, fsGroup: 999 });
    expect(container.securityContext).toMatchObject({ allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } });
    for (const probe of [container.startupProbe, container.livenessProbe, container.readinessProbe]) expect(probe.exec.command[0]).toBe('pg_isready');
    const stop = container.lifecycle.preStop.exec.command.join(' ') as string;
    expect(stop).toMatch(/pg_ctl stop .*-m fast/);
    expect(trial.spec.template.spec.terminationGracePeriodSeconds).toBeGreaterThan(Number(/-t (\d+)/.exec(stop)![1]));
    expect(container.image).toMatch(/^docker\.io\/library\/postgres:\d+\.\d+$/);
  });
});

it('selects existing pods with every Service of the variant', () => {
  const podLabels = workloads(manifests).map((w) => w.spec.template.metadata.labels as Record<string, string>);
  for (const service of manifests.filter((m) => m.kind === 'Service')) {
    const selector = service.spec.selector as Record<string, string>;
    expect({ service: service.metadata.name, matches: podLabels.some((labels) => Object.entries(selector).every(([k, v]) => labels[k] === v)) }).toEqual({ service: service.metadata.name, matches: true });
  }
});

/** Every non-test TypeScript file of src/, joined: where the gateway reads its variables. */
function sourceText(dir = join(ROOT, 'src')): string {
  return readdirSync(dir, { withFileTypes: true })
    .map((entry) => {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) return sourceText(path);
      return entry.name.endsWith('.ts') && !/\.(int-|e2e-)?spec\.ts$/.test(entry.name) ? readFileSync(path, 'utf8') : '';
    })
    .join('\n');
}
