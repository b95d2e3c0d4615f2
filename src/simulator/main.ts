// Runs the upstream simulator alone: `npm run simulator` (PORT_SIMULATOR, default 8090).
import { startSimulator } from './simulator';

async function main(): Promise<void> {
  const sim = await startSimulator({ port: Number(process.env.PORT_SIMULATOR ?? 8090) });
  process.stdout.write(`upstream simulator listening on ${sim.url}\n`);
  const stop = () => void sim.close().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

void main();
