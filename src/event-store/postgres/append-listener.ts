// LISTEN on the append channel over one dedicated connection (not a pooled one: a pooled connection
// would carry the LISTEN to whoever borrows it next). A notification wakes the subscriptions at once;
// when the connection is lost, they keep polling while it is re-opened after a pause.
import { Client, type ClientConfig } from 'pg';
import { APPEND_CHANNEL } from './postgres-schema';

/** Tells the listening connection apart in pg_stat_activity. */
export const LISTENER_APPLICATION_NAME = 'inference-gateway-listener';

export class AppendListener {
  private client: Client | null = null;
  private closed = false;
  private retry: NodeJS.Timeout | null = null;

  constructor(
    private readonly config: ClientConfig,
    private readonly onAppend: () => void,
    private readonly onError: (error: Error) => void,
    private readonly reconnectDelayMs = 1000,
  ) {}

  /** Resolves once listening, or after the first failure (polling covers until a retry succeeds). */
  async start(): Promise<void> {
    if (this.closed) return;
    const client = new Client({ ...this.config, application_name: LISTENER_APPLICATION_NAME });
    this.client = client;
    client.on('notification', () => this.onAppend());
    client.on('error', (error) => this.lost(client, error));
    client.on('end', () => this.lost(client, new Error('LISTEN connection ended')));
    try {
      await client.connect();
      await client.query(`LISTEN ${APPEND_CHANNEL}`);
      // Appends made while not listening are found by this read.
      this.onAppend();
    } catch (error) {
      this.lost(client, error as Error);
    }
  }

  get listening(): boolean {
    return this.client !== null && this.retry === null;
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.retry) clearTimeout(this.retry);
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => undefined);
  }

  private lost(client: Client, error: Error): void {
    if (this.closed || this.client !== client || this.retry) return;
    this.onError(error);
    client.end().catch(() => undefined);
    this.retry = setTimeout(() => {
      this.retry = null;
      void this.start();
    }, this.reconnectDelayMs);
    this.retry.unref();
  }
}
