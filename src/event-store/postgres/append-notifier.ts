// Tells other replicas that events were appended, outside the appends' own transactions: a NOTIFY inside
// an append serializes every commit that carries one on the server's notify lock (measured: 10 writers
// went from 1821 to 744 appends/s), so appends commit without it, and this sends one NOTIFY for all the
// commits made while the previous one was on its way. Its transaction skips the fsync wait: a lost
// notification only means the other replicas find the events at their next poll.
import type { Pool } from 'pg';
import { APPEND_CHANNEL } from './postgres-schema';

const NOTIFY = `BEGIN; SET LOCAL synchronous_commit TO off; SELECT pg_notify('${APPEND_CHANNEL}', ''); COMMIT`;

export class AppendNotifier {
  private sending: Promise<void> | null = null;
  private pending = false;

  constructor(
    private readonly pool: Pool,
    private readonly onError: (error: Error) => void,
  ) {}

  /** After a commit: a notification follows soon, shared with the commits around it. */
  appended(): void {
    this.pending = true;
    this.sending ??= this.send();
  }

  /** Resolves once nothing is being sent (before the pool closes). */
  async idle(): Promise<void> {
    while (this.sending) await this.sending;
  }

  private async send(): Promise<void> {
    try {
      while (this.pending) {
        this.pending = false;
        await this.pool.query(NOTIFY).catch((error: Error) => this.onError(error));
      }
    } finally {
      this.sending = null;
    }
  }
}
