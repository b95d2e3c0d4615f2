// A child process for shared-files-start-up.int-spec.ts: at each agreed instant it opens (creates, on the
// first) the read models' and the idempotency capability's files, as a replica does at start-up (the
// event store's own opening retries are tested with the store). Prints one line
// per failed opening and exits 1 if any failed.
import { join } from 'node:path';
import { openReadModelDb } from '../../src/projections/read-model-db';
import { openOwnerOnlyDb } from '../../src/idempotency/owner-only-db';

const [root, firstInstant, rounds, gapMs] = process.argv.slice(2);

function main(): void {
  let failures = 0;
  for (let round = 0; round < Number(rounds); round++) {
    const dir = join(root, `round-${round}`);
    // Busy-wait to the instant, so the children open each directory together (a timer is too coarse).
    for (const instant = Number(firstInstant) + round * Number(gapMs); Date.now() < instant; );
    try {
      openReadModelDb(dir).close();
      openOwnerOnlyDb(dir, 'kept-answers.sqlite', 'CREATE TABLE IF NOT EXISTS t (a)').close();
    } catch (error) {
      failures++;
      process.stdout.write(`round ${round}: ${(error as { code?: string }).code ?? ''} ${(error as Error).message}\n`);
    }
  }
  process.exit(failures === 0 ? 0 : 1);
}

main();
