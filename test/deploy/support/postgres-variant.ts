// The PostgreSQL variant of the Kubernetes manifests (deploy/k8s/postgres/): the values its comments tell the
// operator to put in a Secret, and the environment its gateway pod would see.
import { randomBytes } from 'node:crypto';
import { imageEnv } from './dockerfile';
import { containerEnv, find, type Manifest } from './manifests';

/**
 * The values the documented command gives the Secret: `"$(openssl rand -hex N)"` becomes N random bytes in hex,
 * as the shell would make it; a quoted literal stays as written.
 */
export function documentedSecretValues(text: string, secret: string): Record<string, string> {
  const command = new RegExp(`kubectl create secret generic ${secret}((?:[^\\n]*\\\\\\n#?)*[^\\n]*)`).exec(text);
  if (!command) throw new Error(`no documented command creating the Secret ${secret}`);
  const values: Record<string, string> = {};
  for (const [, key, single, double] of command[1].matchAll(/--from-literal=([A-Za-z0-9_.-]+)=(?:'([^']*)'|"([^"]*)")/g)) {
    const generated = /^\$\(openssl rand -hex (\d+)\)$/.exec(double ?? '');
    values[key] = generated ? randomBytes(Number(generated[1])).toString('hex') : (single ?? double);
  }
  return values;
}

/** The quoted value of `--from-literal=KEY=...` in the documented `kubectl create secret generic SECRET` command. */
export function documentedLiteral(text: string, secret: string, key: string): string {
  const value = documentedSecretValues(text, secret)[key];
  if (value === undefined) throw new Error(`the command creating ${secret} sets no quoted ${key}`);
  return value;
}

/** The image's ENV under the serving pod's environment, with the Secret's connection string set to `postgresUrl`. */
export function postgresPodEnv(manifests: Manifest[], postgresUrl: string): Record<string, string> {
  const gateway = find(manifests, 'StatefulSet', 'inference-gateway').spec.template.spec.containers[0];
  return { ...imageEnv(), ...containerEnv(manifests, gateway), GATEWAY_POSTGRES_URL: postgresUrl };
}
