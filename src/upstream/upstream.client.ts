// One pooled, keep-alive HTTP client (undici) for every model upstream. Maps transport failures to
// the gateway's errors: timeouts and 5xx -> 502, unreachable -> 503, a cold start -> 503 + Retry-After.
// Answers are read through it so that none is held beyond the limits of upstream-limits.ts.
import { Agent, Dispatcher, FormData, request } from 'undici';
import type { Readable } from 'node:stream';
import type { CatalogModel } from '../catalog/catalog.types';
import { ApiError } from '../common/api-error';
import { upstreamErrorFor, transportErrorFor } from './upstream-errors';
import { copyWith } from '../common/copy-with';
import { readBoundedBytes, readBoundedJson, readBoundedText, readErrorText } from './bounded-body';
import { upstreamLimitsFrom, type UpstreamLimits } from './upstream-limits';

/** Only the start of an upstream's error answer is read: its message is cut to 500 characters anyway. */
const ERROR_TEXT_BYTES = 64 * 1024;

export interface UpstreamRequest {
  /** Path below the model's base URL, e.g. `/chat/completions`. */
  path: string;
  method?: 'GET' | 'POST';
  json?: unknown;
  body?: Buffer | Readable | FormData;
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

export interface ColdStartListener {
  upstreamCold(model: CatalogModel, retryAfterSeconds: number): void;
  upstreamAnswered(model: CatalogModel): void;
}

/** Sees every call's outcome (`ok` or the error code answered) and its time to headers (metrics). */
export interface UpstreamCallObserver {
  upstreamCall(modelId: string, outcome: string, seconds: number): void;
}

/** Wraps every call (tracing: a client span whose context `send` carries in the request's headers). */
export interface UpstreamCallTracer {
  call(model: CatalogModel, req: UpstreamRequest, send: (req: UpstreamRequest) => Promise<Dispatcher.ResponseData>): Promise<Dispatcher.ResponseData>;
}

export class UpstreamClient {
  private readonly agent = new Agent({ keepAliveTimeout: 30_000, connections: 256, pipelining: 1 });
  private listener: ColdStartListener | null = null;
  private observer: UpstreamCallObserver | null = null;

  constructor(
    readonly limits: UpstreamLimits = upstreamLimitsFrom(process.env),
    private readonly tracer: UpstreamCallTracer | null = null,
  ) {}

  onColdStart(listener: ColdStartListener): void {
    this.listener = listener;
  }

  observeCalls(observer: UpstreamCallObserver): void {
    this.observer = observer;
  }

  /** Sends the request; resolves only with a 2xx response whose body the caller must consume. */
  send(model: CatalogModel, req: UpstreamRequest): Promise<Dispatcher.ResponseData> {
    return this.tracer ? this.tracer.call(model, req, (traced) => this.sendObserved(model, traced)) : this.sendObserved(model, req);
  }

  private async sendObserved(model: CatalogModel, req: UpstreamRequest): Promise<Dispatcher.ResponseData> {
    const startedAt = this.observer === null ? 0 : performance.now();
    let response: Dispatcher.ResponseData;
    try {
      response = await this.dispatch(model, req);
    } catch (error) {
      this.observe(model, error instanceof ApiError ? error.code : 'internal_error', startedAt);
      throw error;
    }
    if (response.statusCode < 300) {
      this.observe(model, 'ok', startedAt);
      this.listener?.upstreamAnswered(model);
      return response;
    }
    const text = await readErrorText(response, ERROR_TEXT_BYTES);
    const error = upstreamErrorFor(model, response.statusCode, response.headers['retry-after'], text);
    this.observe(model, error.code, startedAt);
    if (error.status === 503 && error.code === 'model_cold') {
      this.listener?.upstreamCold(model, Number(error.headers['retry-after']));
    }
    throw error;
  }

  private observe(model: CatalogModel, outcome: string, startedAt: number): void {
    this.observer?.upstreamCall(model.id, outcome, (performance.now() - startedAt) / 1000);
  }

  /** A non-streamed answer's bytes; 502 upstream_response_too_large past `limits.maxBodyBytes`. */
  readBytes(model: CatalogModel, response: Dispatcher.ResponseData): Promise<Buffer> {
    return readBoundedBytes(response, model.id, this.limits.maxBodyBytes);
  }

  readText(model: CatalogModel, response: Dispatcher.ResponseData): Promise<string> {
    return readBoundedText(response, model.id, this.limits.maxBodyBytes);
  }

  /** Parsed JSON, or `undefined` when the answer is not JSON. */
  readJson(model: CatalogModel, response: Dispatcher.ResponseData): Promise<unknown> {
    return readBoundedJson(response, model.id, this.limits.maxBodyBytes);
  }

  private async dispatch(model: CatalogModel, req: UpstreamRequest): Promise<Dispatcher.ResponseData> {
    const headers: Record<string, string> = copyWith(req.headers ?? {});
    if (model.upstream.api_key) headers.authorization = `Bearer ${model.upstream.api_key}`;
    let body = req.body;
    if (req.json !== undefined) {
      body = Buffer.from(JSON.stringify(req.json));
      headers['content-type'] = 'application/json';
    }
    try {
      // The agent itself rather than undici's `request(url, ...)`, whose options spread would cost every
      // call two hidden classes of its own (src/common/copy-with.ts).
      const url = new URL(`${model.upstream.base_url.replace(/\/$/, '')}${req.path}`);
      return await this.agent.request({
        origin: url.origin,
        path: `${url.pathname}${url.search}`,
        method: req.method ?? 'POST',
        headers,
        body,
        signal: req.signal,
        headersTimeout: model.upstream.timeout_ms,
        bodyTimeout: model.upstream.timeout_ms,
      });
    } catch (err) {
      if (err instanceof ApiError) throw err;
      throw transportErrorFor(model, err);
    }
  }

  /** A plain GET used by the readiness prober; never throws. */
  async probe(url: string, timeoutMs: number): Promise<{ status: number; retryAfter?: string }> {
    try {
      const res = await request(url, { method: 'GET', dispatcher: this.agent, headersTimeout: timeoutMs, bodyTimeout: timeoutMs });
      await res.body.dump();
      const retryAfter = res.headers['retry-after'];
      return { status: res.statusCode, retryAfter: typeof retryAfter === 'string' ? retryAfter : undefined };
    } catch {
      return { status: 0 };
    }
  }

  async close(): Promise<void> {
    await this.agent.close();
  }
}
