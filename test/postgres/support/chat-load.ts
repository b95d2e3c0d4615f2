// A bounded load of chat requests against several replicas: a few workers per replica, each sending one
// request after another (every other one streamed, keys taken in turn from a weighted list) until stopped
// or until the request budget is spent. Every outcome is kept for the assertions: which replica, which
// key, the status, whether the answer arrived whole (a stream ends with [DONE]) and the gateway's request id.
export interface ChatOutcome {
  replica: number;
  key: string;
  stream: boolean;
  /** 0: no HTTP answer (connection refused or reset, timeout). */
  status: number;
  /** A 200 whose body arrived whole. */
  complete: boolean;
  requestId: string | null;
  errorCode: string | null;
  startedAt: number;
  endedAt: number;
}

export interface ChatLoadOptions {
  urls: () => string[];
  /** One key per request, cycling through this list (repeat a key to weight it); read on every request. */
  keys: () => string[];
  workersPerReplica: number;
  maxRequests: number;
  requestTimeoutMs: number;
}

export class ChatLoad {
  readonly outcomes: ChatOutcome[] = [];
  private sent = 0;
  private stopped = false;
  private workers: Promise<void>[] = [];

  constructor(private readonly options: ChatLoadOptions) {}

  start(): void {
    const replicas = this.options.urls().length;
    for (let replica = 0; replica < replicas; replica++) {
      for (let worker = 0; worker < this.options.workersPerReplica; worker++) this.workers.push(this.work(replica));
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await Promise.all(this.workers);
  }

  /** The first whole 200 from `replica` that ended after `since` (performance.now()), or null. */
  firstServedAfter(replica: number, since: number): ChatOutcome | null {
    return this.outcomes.find((o) => o.replica === replica && o.complete && o.endedAt > since) ?? null;
  }

  private async work(replica: number): Promise<void> {
    while (!this.stopped && this.sent < this.options.maxRequests) {
      const index = this.sent++;
      const keys = this.options.keys();
      const outcome = await this.send(replica, keys[index % keys.length], index % 2 === 1);
      this.outcomes.push(outcome);
      // A replica that is down refuses at once: do not spin on it.
      if (outcome.status === 0) await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  private async send(replica: number, key: string, stream: boolean): Promise<ChatOutcome> {
    const startedAt = performance.now();
    const base = { replica, key, stream, startedAt };
    try {
      const res = await fetch(`${this.options.urls()[replica]}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'aria', messages: [{ role: 'user', content: 'Say hi in a few words.' }], max_tokens: 16, stream }),
        signal: AbortSignal.timeout(this.options.requestTimeoutMs),
      });
      const requestId = res.headers.get('x-request-id');
      const text = await res.text().catch(() => null);
      const complete = res.status === 200 && text !== null && (stream ? text.includes('data: [DONE]') : isJson(text));
      const errorCode = res.status === 200 ? null : (errorCodeOf(text) ?? null);
      return { ...base, status: res.status, complete, requestId, errorCode, endedAt: performance.now() };
    } catch (error) {
      const code = (error as { cause?: { code?: string } }).cause?.code ?? (error as Error).name;
      return { ...base, status: 0, complete: false, requestId: null, errorCode: code, endedAt: performance.now() };
    }
  }
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

function errorCodeOf(text: string | null): string | undefined {
  try {
    return (JSON.parse(text ?? '') as { error?: { code?: string } }).error?.code;
  } catch {
    return undefined;
  }
}
