// `npm start`: the gateway. GATEWAY_CONFIG names the operator's configuration; without it the
// embedded default runs (example catalog on the built-in upstream simulator, demo key printed).
// First: a Node too old for the native addons gets one line instead of a crash (node-version-check.ts).
import './node-version-check';
import { readRuntimeEnv } from './config/gateway-config';
import { loadConfigFile, ConfigError } from './config/load-config';
import { DataDirError, prepareDataDir } from './config/data-dir';
import { buildRuntime } from './core/build-runtime';
import { startGateway } from './gateway';
import { embeddedConfig } from './embedded-default';
import { startSimulator } from './simulator/simulator';
import { resolveDemoKey } from './access/demo-key-file';
import { createGatewayLogger, fatalLogger, logProcessWarnings } from './observability/logging/gateway-logger';
import { writeBanner, writeCatchingUp, type DemoBanner } from './observability/logging/banner';
import { checkStartupSecrets } from './config/startup-secrets';

/** Start-up refused on purpose (weak secrets, open metrics): one line, no stack. */
class StartupRefusal extends Error {}

async function main(): Promise<void> {
  const env = readRuntimeEnv();
  // The gateway's one logger, made here and handed to the runtime (which hands it to every part).
  const log = createGatewayLogger(env.logLevel);
  logProcessWarnings(log);
  prepareDataDir(env.dataDir);
  let config;
  let banner: DemoBanner | null = null;
  const cleanups: (() => Promise<void>)[] = [];
  if (env.configPath) {
    config = loadConfigFile(env.configPath);
  } else {
    const simulator = await startSimulator({ port: Number(process.env.SIMULATOR_PORT ?? 0) });
    cleanups.push(() => simulator.close());
    const demo = resolveDemoKey(env.dataDir, env.demoKey);
    const embedded = embeddedConfig(simulator.url, demo.key, env.managementKey);
    config = embedded.config;
    const limit = config.organizations.find((org) => org.id === 'org-demo')?.rate_limit;
    banner = {
      simulatorUrl: simulator.url,
      organization: 'org-demo',
      rateLimit: limit ? `${limit.requests} requests per ${limit.window_seconds} s` : null,
      apiKey: embedded.demoKey,
      keptIn: demo.path ?? 'GATEWAY_DEMO_KEY',
    };
  }
  const secrets = checkStartupSecrets(env, config, process.env);
  for (const warning of secrets.warnings) fatalLogger().warn(`INSECURE: ${warning}`);
  if (secrets.refusals.length > 0) throw new StartupRefusal(`gateway refused to start: ${secrets.refusals.join(' | ')}`);
  const gateway = await startGateway(await buildRuntime(config, env, { catchUpInBackground: true, log }));
  // /healthz answers from here; the banner ("listening on", which scripts and tests wait for) once
  // the projections have caught up and /readyz can answer 200.
  writeCatchingUp(gateway.url);
  // The only signal handlers: Nest's shutdown hooks would also take SIGTERM and re-raise it once the
  // HTTP side had closed, killing the process before the event store, relay and projections stopped.
  const shutdown = async () => {
    try {
      await gateway.close();
      for (const cleanup of cleanups) await cleanup();
      process.exit(0);
    } catch (err) {
      fatalLogger().fatal({ err }, 'shutdown failed');
      process.exit(1);
    }
  };
  process.once('SIGINT', () => void shutdown());
  process.once('SIGTERM', () => void shutdown());
  await gateway.runtime.startup!.caughtUp;
  writeBanner(gateway.url, banner);
}

main().catch((err: unknown) => {
  if (err instanceof ConfigError || err instanceof DataDirError || err instanceof StartupRefusal) fatalLogger().fatal(err.message);
  else fatalLogger().fatal({ err }, `gateway failed to start: ${(err as Error).message ?? String(err)}`);
  process.exit(1);
});
