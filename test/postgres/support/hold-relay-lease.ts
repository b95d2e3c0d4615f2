// A stand-in replica for the relay hand-over test: takes the relay lease on GATEWAY_POSTGRES_URL, prints
// "held", and keeps it until it is killed.
import { PostgresEventStore } from '../../../src/event-store/postgres/postgres-event-store';

async function main(): Promise<void> {
  const store = await PostgresEventStore.connect(process.env.GATEWAY_POSTGRES_URL!);
  const lease = store.createRelayLease();
  while (!(await lease.tryAcquire())) await new Promise((resolve) => setTimeout(resolve, 100));
  process.stdout.write('held\n');
  setInterval(() => undefined, 60_000);
}

main().catch((error: unknown) => {
  process.stderr.write(`${String(error)}\n`);
  process.exit(1);
});
