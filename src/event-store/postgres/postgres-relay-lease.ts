// The relay lease on PostgreSQL: a session advisory lock held by one dedicated connection. A holder that
// dies (process killed, host gone) loses its connection and with it the lock, and the next replica's
// attempt (every second) takes over. TCP keepalives on both sides bound how long a vanished host keeps
// it (about 11 s); a heartbeat query finds a dead connection from this side. The relay's checkpoint is
// saved through the same connection, so a holder that lost the lock can no longer save.
import { Client, type ClientConfig, type Pool } from 'pg';
import type { RelayLease } from '../../kafka/relay/relay-lease';
import type { RelayCheckpoint } from '../../kafka/relay/relay-checkpoint';
import { LOCK_CLASS, RELAY_LOCK } from './postgres-schema';

export const RELAY_LEASE_APPLICATION_NAME = 'inference-gateway-relay-lease';
const HEARTBEAT_MS = 2_000;
// Server side: a peer silent for 5 s is probed every 2 s and dropped after 3 misses.
const SERVER_KEEPALIVES = '-c tcp_keepalives_idle=5 -c tcp_keepalives_interval=2 -c tcp_keepalives_count=3';

export class PostgresRelayLease implements RelayLease {
  private client: Client | null = null;
  private heartbeat: NodeJS.Timeout | null = null;

  constructor(
    private readonly config: ClientConfig,
    private readonly pool: Pool,
  ) {}

  held(): boolean {
    return this.client !== null;
  }

  async tryAcquire(): Promise<boolean> {
    if (this.client) return true;
    const client = new Client({ ...this.config, application_name: RELAY_LEASE_APPLICATION_NAME, keepAlive: true, options: SERVER_KEEPALIVES });
    client.on('error', () => this.lose(client));
    client.on('end', () => this.lose(client));
    try {
      await client.connect();
      const { rows } = await client.query<{ locked: boolean }>('SELECT pg_try_advisory_lock($1, $2) AS locked', [LOCK_CLASS, RELAY_LOCK]);
      if (!rows[0].locked) {
        await client.end();
        return false;
      }
    } catch {
      await client.end().catch(() => undefined);
      return false;
    }
    this.client = client;
    this.heartbeat = setInterval(() => void client.query('SELECT 1').catch(() => this.lose(client)), HEARTBEAT_MS);
    this.heartbeat.unref();
    return true;
  }

  async release(): Promise<void> {
    const client = this.client;
    this.stopHolding();
    // Ending the session releases the lock.
    await client?.end().catch(() => undefined);
  }

  /** From the pool when not holding (a standby's view of the holder's progress). */
  async load(): Promise<RelayCheckpoint | null> {
    const { rows } = await (this.client ?? this.pool).query<{ checkpoint: RelayCheckpoint }>('SELECT checkpoint FROM gateway_relay_checkpoint');
    return rows[0]?.checkpoint ?? null;
  }

  /** Only through the lease's connection: a former holder's save fails instead of moving it back. */
  async save(checkpoint: RelayCheckpoint): Promise<void> {
    if (!this.client) throw new Error('kafka relay lease lost: the checkpoint is not saved');
    await this.client.query(
      `INSERT INTO gateway_relay_checkpoint (checkpoint) VALUES ($1::json)
       ON CONFLICT (singleton) DO UPDATE SET checkpoint = excluded.checkpoint`,
      [JSON.stringify(checkpoint)],
    );
  }

  private lose(client: Client): void {
    if (this.client !== client) return;
    this.stopHolding();
    client.end().catch(() => undefined);
  }

  private stopHolding(): void {
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.heartbeat = null;
    this.client = null;
  }
}
