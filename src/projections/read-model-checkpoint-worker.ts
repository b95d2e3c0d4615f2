// Worker thread of ReadModelCheckpointer: a PASSIVE checkpoint of read-models.sqlite every interval.
// PASSIVE never waits for the main thread's readers or writer; frames it cannot copy yet wait for the next one.
import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import Database from 'better-sqlite3';

export interface CheckpointWorkerData {
  databasePath: string;
  intervalMs: number;
}

function serve(port: MessagePort, { databasePath, intervalMs }: CheckpointWorkerData): void {
  const db = new Database(databasePath);
  const timer = setInterval(() => db.pragma('wal_checkpoint(PASSIVE)'), intervalMs);
  // The only message is "close".
  port.once('message', () => {
    clearInterval(timer);
    db.close();
    port.close();
  });
  port.postMessage('ready');
}

if (parentPort) serve(parentPort, workerData as CheckpointWorkerData);
