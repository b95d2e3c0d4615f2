// A broker of its own for a test that stops and restarts it, so other test files keep theirs.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const SCRIPTS = join(__dirname, '..');

export class DedicatedBroker {
  private readonly stateDir = mkdtempSync(join(tmpdir(), 'kafka-dedicated-'));
  private readonly env: NodeJS.ProcessEnv;
  brokers = '';

  /** `listenHost`: the address the broker listens on and advertises (start-broker.sh's KAFKA_LISTEN_HOST). */
  constructor(listenHost?: string) {
    this.env = { ...process.env, KAFKA_STATE_FILE: join(this.stateDir, 'broker.env'), ...(listenHost ? { KAFKA_LISTEN_HOST: listenHost } : {}) };
  }

  async start(): Promise<string> {
    const { stdout } = await run(join(SCRIPTS, 'start-broker.sh'), [], { env: this.env });
    this.brokers = /KAFKA_BROKERS=(\S+)/.exec(stdout)?.[1] ?? '';
    if (!this.brokers) throw new Error(`start-broker.sh printed no KAFKA_BROKERS: ${stdout}`);
    return this.brokers;
  }

  /** Stops the broker process but keeps its storage and ports for restart(). */
  async stop(): Promise<void> {
    await run(join(SCRIPTS, 'stop-broker.sh'), ['--keep-data'], { env: this.env });
  }

  async restart(): Promise<void> {
    await run(join(SCRIPTS, 'start-broker.sh'), ['--restart'], { env: this.env });
  }

  async destroy(): Promise<void> {
    await run(join(SCRIPTS, 'stop-broker.sh'), [], { env: this.env });
    rmSync(this.stateDir, { recursive: true, force: true });
  }

  /** Synchronous SIGKILL and removal, for a test process that is exiting (no time for stop-broker.sh). */
  killNow(): void {
    const state = Object.fromEntries(
      readFileSync(this.env.KAFKA_STATE_FILE!, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((line) => line.split('=', 2) as [string, string]),
    );
    process.kill(Number(state.KAFKA_PID), 'SIGKILL');
    rmSync(state.KAFKA_DATA_DIR, { recursive: true, force: true });
    rmSync(this.stateDir, { recursive: true, force: true });
  }
}
