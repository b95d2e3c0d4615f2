// The Kubernetes manifests in deploy/k8s as plain objects, and the pieces tests ask about.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { ROOT } from './dockerfile';

export const K8S_DIR = join(ROOT, 'deploy', 'k8s');
/** The PostgreSQL variant (deploy/k8s/postgres/), applied instead of the KurrentDB files. */
export const POSTGRES_K8S_DIR = join(K8S_DIR, 'postgres');

export interface Manifest {
  file: string;
  kind: string;
  metadata: { name: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  spec?: any;
  data?: Record<string, string>;
  stringData?: Record<string, string>;
  [key: string]: any;
}

/** The manifests of one directory (not its subdirectories: each is a variant of its own). */
export function loadManifests(dir = K8S_DIR): Manifest[] {
  return readdirSync(dir)
    .filter((file) => file.endsWith('.yaml'))
    .sort()
    .flatMap((file) => {
      const text = readFileSync(join(dir, file), 'utf8');
      const shipped = parseAllDocuments(text).map((doc) => {
        if (doc.errors.length > 0) throw new Error(`${file}: ${doc.errors[0].message}`);
        return { ...(doc.toJS() as Manifest), file };
      });
      return [...shipped, ...documentedSecrets(text, file)];
    });
}

/**
 * Secrets a manifest's comments tell the operator to create (`kubectl create secret generic NAME` with
 * `--from-literal=KEY=...` lines) rather than shipping them with placeholder values: as the pod would
 * see them, each key with a stand-in value.
 */
function documentedSecrets(text: string, file: string): Manifest[] {
  return [...text.matchAll(/kubectl create secret generic ([a-z0-9-]+)((?:[^\n]*\\\n#?)*[^\n]*)/g)].flatMap((match) => {
    const keys = [...match[2].matchAll(/--from-literal=([A-Za-z0-9_.-]+)=/g)].map((key) => key[1]);
    if (keys.length === 0) return [];
    const stringData = Object.fromEntries(keys.map((key) => [key, `created-with-kubectl-${key.toLowerCase()}`]));
    return [{ kind: 'Secret', apiVersion: 'v1', metadata: { name: match[1] }, type: 'Opaque', stringData, file: `${file} (kubectl create secret)` }];
  });
}

export const WORKLOAD_KINDS = ['Deployment', 'StatefulSet', 'DaemonSet', 'ReplicaSet', 'Job', 'CronJob'];

export const workloads = (manifests: Manifest[]) => manifests.filter((m) => WORKLOAD_KINDS.includes(m.kind));

export function find(manifests: Manifest[], kind: string, name: string): Manifest {
  const found = manifests.find((m) => m.kind === kind && m.metadata.name === name);
  if (!found) throw new Error(`no ${kind} ${name} in deploy/k8s`);
  return found;
}

export function containersOf(workload: Manifest): any[] {
  const pod = workload.spec.template.spec;
  return [...(pod.initContainers ?? []), ...pod.containers];
}

/** The container's environment as the pod would see it: envFrom ConfigMaps/Secrets, then env values. */
export function containerEnv(manifests: Manifest[], container: any): Record<string, string> {
  const env: Record<string, string> = {};
  for (const source of container.envFrom ?? []) {
    const ref = source.configMapRef ?? source.secretRef;
    const target = find(manifests, source.configMapRef ? 'ConfigMap' : 'Secret', ref.name);
    Object.assign(env, target.data ?? {}, target.stringData ?? {});
  }
  for (const entry of container.env ?? []) {
    if ('value' in entry) env[entry.name] = String(entry.value).replace(/\$\(([A-Z0-9_]+)\)/g, (_m, name: string) => env[name] ?? '');
    else if (entry.valueFrom?.secretKeyRef) {
      const { name, key } = entry.valueFrom.secretKeyRef;
      env[entry.name] = find(manifests, 'Secret', name).stringData![key];
    }
  }
  return env;
}
