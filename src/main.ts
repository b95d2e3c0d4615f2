// `npm start`: the gateway. GATEWAY_CONFIG names the operator's configuration; without it the
// embedded default runs (example catalog on the built-in upstream simulator, demo key printed).
import { readRuntimeEnv } from './config/gateway-config';
import { loadConfigFile, ConfigError } from './config/load-config';
import { buildRuntime } from './core/build-runtime';
import { startGateway } from './gateway';
import { embeddedConfig } from './embedded-default';
import { startSimulator } from './simulator/simulator';
import { resolveDemoKey } from './access/demo-key-file';

async function main(): Promise<void> {
  const env = readRuntimeEnv();
  let config;
  let banner = '';
  const cleanups: (() => Promise<void>)[] = [];
  if (env.configPath) {
    config = loadConfigFile(env.configPath);
  } else {
    const simulator = await startSimulator({ port: Number(process.env.SIMULATOR_PORT ?? 0) });
    cleanups.push(() => simulator.close());
    const demo = resolveDemoKey(env.dataDir, env.demoKey);
    const embedded = embeddedConfig(simulator.url, demo.key);
    config = embedded.config;
    const kept = demo.path ? ` (kept in ${demo.path})` : ' (GATEWAY_DEMO_KEY)';
    const limit = config.organizations.find((org) => org.id === 'org-demo')?.rate_limit;
    banner =
      `  upstream simulator: ${simulator.url} (simulated models, not real ones)\n` +
      `  demo organization:  org-demo${limit ? ` (${limit.requests} requests per ${limit.window_seconds} s)` : ''}\n` +
      `  demo API key:       ${embedded.demoKey}${kept}\n`;
  }
  const gateway = await startGateway(await buildRuntime(config, env));
  process.stdout.write(`inference gateway listening on ${gateway.url}\n  base URL:           ${gateway.url}/v1\n${banner}`);
  // The only signal handlers: Nest's shutdown hooks would also take SIGTERM and re-raise it once the
  // HTTP side had closed, killing the process before the event store, relay and projections stopped.
  const shutdown = async () => {
    try {
      await gateway.close();
      for (const cleanup of cleanups) await cleanup();
      process.exit(0);
    } catch (err) {
      process.stderr.write(`shutdown failed: ${(err as Error).stack ?? String(err)}\n`);
      process.exit(1);
    }
  };
  process.once('SIGINT', () => void shutdown());
  process.once('SIGTERM', () => void shutdown());
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof ConfigError ? err.message : (err as Error).stack ?? String(err)}\n`);
  process.exit(1);
});
