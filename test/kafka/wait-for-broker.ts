// Readiness probe for start-broker.sh: polls describeCluster until the broker answers, the broker
// process dies, or the deadline passes. Usage: wait-for-broker.ts HOST:PORT PID TIMEOUT_MS
import { Kafka, logLevel } from 'kafkajs';

const POLL_INTERVAL_MS = 500;

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function answers(broker: string): Promise<boolean> {
  const admin = new Kafka({ brokers: [broker], clientId: 'wait-for-broker', logLevel: logLevel.NOTHING, retry: { retries: 0 } }).admin();
  try {
    await admin.connect();
    const cluster = await admin.describeCluster();
    return cluster.brokers.length > 0;
  } catch {
    return false;
  } finally {
    await admin.disconnect().catch(() => undefined);
  }
}

async function main(): Promise<void> {
  const [broker, pid, timeoutMs] = process.argv.slice(2);
  const deadline = Date.now() + Number(timeoutMs);
  while (Date.now() < deadline) {
    if (!isAlive(Number(pid))) throw new Error(`broker process ${pid} exited before it was ready`);
    if (await answers(broker)) return;
    await new Promise((resolve) => setTimeout(resolve, POLL_INTERVAL_MS));
  }
  throw new Error(`broker ${broker} not ready after ${timeoutMs} ms`);
}

main().catch((error: Error) => {
  console.error(`[kafka-broker] ${error.message}`);
  process.exit(1);
});
