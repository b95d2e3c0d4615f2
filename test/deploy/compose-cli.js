// Whether a Docker Compose v2 CLI is at hand, found as test/deploy/compose-config.sh finds it: the
// `docker compose` plugin, a `docker-compose` on PATH, or the one `compose-config.sh --install` built.
// Plain JavaScript: jest.config.js and scripts/test.sh read it before anything is compiled.
const { spawnSync } = require('node:child_process');
const { existsSync } = require('node:fs');
const { homedir } = require('node:os');
const { join } = require('node:path');

function succeeds(command, args) {
  const run = spawnSync(command, args, { encoding: 'utf8', timeout: 10_000 });
  return run.status === 0 ? run.stdout : null;
}

function composeCliAvailable() {
  const tools = join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'inference-gateway-deploy-tools', 'bin', 'docker-compose');
  if (existsSync(tools)) return true;
  if (succeeds('docker', ['compose', 'version']) !== null) return true;
  const version = succeeds('docker-compose', ['version', '--short']);
  return version !== null && /^v?[2-9]/.test(version.trim());
}

module.exports = { composeCliAvailable };
