// Watches who holds the Kafka relay lease, from PostgreSQL's side (the authority: the lease is a session
// advisory lock, src/event-store/postgres/postgres-relay-lease.ts): every sample lists the client addresses
// of the sessions holding it. A sample the server could not answer (restarting) records null.
import { Client } from 'pg';
import { LOCK_CLASS, RELAY_LOCK } from '../../../src/event-store/postgres/postgres-schema';

export interface LeaseSample {
  at: number;
  holders: string[] | null;
}

const HOLDERS_SQL = `SELECT host(a.client_addr) AS address FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
  WHERE l.locktype = 'advisory' AND l.granted AND l.classid = $1 AND l.objid = $2 AND l.objsubid = 2`;

export class RelayLeaseWatch {
  readonly samples: LeaseSample[] = [];
  private client: Client | null = null;
  private stopped = false;
  private loop: Promise<void> | null = null;

  constructor(
    private readonly url: string,
    private readonly intervalMs = 200,
  ) {}

  start(): void {
    this.loop = this.run();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.loop;
    await this.client?.end().catch(() => undefined);
  }

  /** The latest answered sample's holders. */
  currentHolders(): string[] {
    for (let i = this.samples.length - 1; i >= 0; i--) if (this.samples[i].holders) return this.samples[i].holders!;
    return [];
  }

  /** First answered sample after `since` with exactly one holder (other than `except`, when given), or null. */
  firstHeldAfter(since: number, except?: string): LeaseSample | null {
    return this.samples.find((s) => s.at > since && s.holders?.length === 1 && s.holders[0] !== except) ?? null;
  }

  private async run(): Promise<void> {
    while (!this.stopped) {
      this.samples.push({ at: performance.now(), holders: await this.holders() });
      await new Promise((resolve) => setTimeout(resolve, this.intervalMs));
    }
  }

  private async holders(): Promise<string[] | null> {
    try {
      if (!this.client) {
        const client = new Client({ connectionString: this.url, connectionTimeoutMillis: 2_000, query_timeout: 2_000 });
        client.on('error', () => undefined);
        await client.connect();
        this.client = client;
      }
      const { rows } = await this.client.query<{ address: string }>(HOLDERS_SQL, [LOCK_CLASS, RELAY_LOCK]);
      return rows.map((row) => row.address);
    } catch {
      await this.client?.end().catch(() => undefined);
      this.client = null;
      return null;
    }
  }
}
