// Test-facing knobs of the upstream simulator: every route consults these before answering, so a
// test can make any model fail, stall or go cold without the gateway knowing it is a simulator.

export type SimulatorMode =
  | { kind: 'ok' }
  | { kind: 'fail'; status: number; body?: unknown }
  | { kind: 'stall'; ms: number }
  | { kind: 'cold'; retryAfterSeconds: number }
  /** Route-specific misbehaviour, e.g. decisions answering the wrong questions. */
  | { kind: 'quirk'; name: string };

export class SimulatorControl {
  private readonly modes = new Map<string, SimulatorMode>();
  private readonly requests: { model: string; path: string; at: number; body?: unknown }[] = [];

  set(model: string, mode: SimulatorMode): void {
    this.modes.set(model, mode);
  }

  reset(): void {
    this.modes.clear();
    this.requests.length = 0;
  }

  modeOf(model: string): SimulatorMode {
    return this.modes.get(model) ?? this.modes.get('*') ?? { kind: 'ok' };
  }

  /** Remembers what reached the simulator so tests can assert on what the gateway forwarded. */
  record(model: string, path: string, body?: unknown): void {
    this.requests.push({ model, path, at: Date.now(), body });
    if (this.requests.length > 1000) this.requests.shift();
  }

  received(filter?: (r: { model: string; path: string }) => boolean) {
    return filter ? this.requests.filter(filter) : [...this.requests];
  }
}
