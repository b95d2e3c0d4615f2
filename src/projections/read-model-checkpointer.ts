// Checkpoints read-models.sqlite's WAL from a worker thread. Projections commit on the main thread with
// synchronous=NORMAL, so a commit never waits for the disk; but SQLite's automatic checkpoint runs inside
// the commit that crosses 1000 WAL pages and fsyncs the WAL and the database file, blocking the event
// loop for 7-10 ms under load (docs/benchmarks-archive.md, finding 16). A worker waits for the disk instead.
import { Worker } from 'node:worker_threads';
import type Database from 'better-sqlite3';
import { workerEntry } from '../common/worker-entry';
import type { CheckpointWorkerData } from './read-model-checkpoint-worker';

/** SQLite's default, restored when the worker is gone so the WAL never grows without bound. */
export const AUTOCHECKPOINT_PAGES = 1000;
export const CHECKPOINT_INTERVAL_MS = 1000;

export class ReadModelCheckpointer {
  private stopping = false;

  private constructor(
    private readonly worker: Worker,
    private readonly db: Database.Database,
    private readonly onFailure: (error: Error) => void,
  ) {
    worker.on('error', (error) => this.fallBack(error));
    worker.on('exit', (code) => this.fallBack(new Error(`read-model checkpoint worker exited (code ${code})`)));
  }

  /** Starts the worker, then turns the main connection's automatic checkpoints off. */
  static start(db: Database.Database, onFailure: (error: Error) => void, intervalMs = CHECKPOINT_INTERVAL_MS): Promise<ReadModelCheckpointer> {
    const { file, execArgv } = workerEntry(__filename, 'read-model-checkpoint-worker');
    const data: CheckpointWorkerData = { databasePath: db.name, intervalMs };
    const worker = new Worker(file, { workerData: data, execArgv });
    return new Promise((resolve, reject) => {
      worker.once('error', reject);
      worker.once('message', () => {
        worker.off('error', reject);
        db.pragma('wal_autocheckpoint = 0');
        resolve(new ReadModelCheckpointer(worker, db, onFailure));
      });
    });
  }

  /** Stops the worker and gives checkpoints back to the main connection (it checkpoints on close). */
  async stop(): Promise<void> {
    if (this.stopping) return;
    this.stopping = true;
    const exited = new Promise<void>((resolve) => this.worker.once('exit', () => resolve()));
    this.worker.postMessage('close');
    await exited;
    this.restoreAutomaticCheckpoints();
  }

  private fallBack(error: Error): void {
    if (this.stopping) return;
    this.stopping = true;
    this.restoreAutomaticCheckpoints();
    this.onFailure(error);
  }

  private restoreAutomaticCheckpoints(): void {
    if (this.db.open) this.db.pragma(`wal_autocheckpoint = ${AUTOCHECKPOINT_PAGES}`);
  }
}
