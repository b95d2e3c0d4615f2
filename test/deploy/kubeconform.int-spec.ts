// deploy/k8s/*.yaml and deploy/k8s/postgres/*.yaml against the Kubernetes API schemas (kubeconform, strict: unknown fields are errors),
// with tools and schemas fetched from the package registries and prepared offline by kubeconform.sh.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');
const SCRIPT = join(__dirname, 'kubeconform.sh');
const TOOLS_MISSING = 3;

function kubeconform(...files: string[]): { status: number | null; output: string } {
  const run = spawnSync('bash', [SCRIPT, ...files], { cwd: ROOT, encoding: 'utf8', timeout: 540_000 });
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
}

describe('kubeconform on deploy/k8s', () => {
  const all = kubeconform();
  const available = all.status !== TOOLS_MISSING;
  if (!available) console.warn(`kubeconform check skipped: ${all.output.trim()} (see deploy/README.md, "Checking the manifests")`);
  const maybe = available ? it : it.skip;

  maybe('finds every resource valid for Kubernetes 1.37 (the ServiceMonitor CRD skipped)', () => {
    expect(all.output).toMatch(/Summary: \d+ resources found in \d+ files - Valid: \d+, Invalid: 0, Errors: 0, Skipped: 1/);
    expect(all.status).toBe(0);
  });

  maybe('finds the PostgreSQL variant (deploy/k8s/postgres/) valid on its own, as it is applied', () => {
    const run = kubeconform('deploy/k8s/postgres/gateway.yaml', 'deploy/k8s/postgres/postgres-trial.yaml');
    expect(run.output).toMatch(/Summary: \d+ resources found in 2 files - Valid: \d+, Invalid: 0, Errors: 0, Skipped: 0/);
    expect(run.status).toBe(0);
  });

  maybe('rejects a manifest with a misspelt field, so the check can fail', () => {
    const dir = mkdtempSync(join(tmpdir(), 'kubeconform-'));
    try {
      const broken = join(dir, 'relay.yaml');
      writeFileSync(broken, readFileSync(join(ROOT, 'deploy', 'k8s', 'relay.yaml'), 'utf8').replace('livenessProbe:', 'livenesProbe:'));
      const run = kubeconform(broken);
      expect(run.status).toBe(1);
      expect(run.output).toContain("additional properties 'livenesProbe' not allowed");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
