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
import type { DeploymentConfig } from '../catalog/catalog.types';
import type { MultipartForm } from './multipart-form';
import { Router, isReplayable, type RoutedCaller } from '../routing/router';
import { AttemptFailed } from '../routing/attempt-outcome';

/** Only the start of an upstream's error answer is read: its message is cut to 500 characters anyway. */
const ERROR_TEXT_BYTES = 64 * 1024;

export interface UpstreamRequest {
  /** Path below the model's base URL, e.g. `/chat/completions`. */
  path: string;
  method?: 'GET' | 'POST';
  json?: unknown;
  body?: Buffer | Readable | FormData;
  /** A multipart body rebuilt for each attempt, so that a failed-over request sends it again whole. */
  form?: MultipartForm;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /** The client's request: its attempts are recorded (docs/routing.md); absent for the gateway's own calls. */
  ctx?: RoutedCaller;
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
  private observer: UpstreamCallObserver | null = null;

  constructor(
    readonly limits: UpstreamLimits = upstreamLimitsFrom(process.env),
    private readonly tracer: UpstreamCallTracer | null = null,
    /** Picks the deployment of each attempt and keeps their health (src/routing). */
    readonly router: Router = new Router(),
  ) {}

  /** The model turned cold (every deployment cold) or answered again (docs/model-status.md). */
  onColdStart(listener: ColdStartListener): void {
    this.router.listen({
      modelCold: (model) => listener.upstreamCold(model, model.upstream.cold_start_seconds),
      modelAnswered: (model) => listener.upstreamAnswered(model),
    });
  }

  observeCalls(observer: UpstreamCallObserver): void {
    this.observer = observer;
  }

  /**
   * Sends the request to one of the model's deployments, failing over to another before the first byte
   * (src/routing/router.ts), inside the call's span when tracing is on; resolves only with a 2xx response
   * whose body the caller must consume.
   */
  send(model: CatalogModel, req: UpstreamRequest): Promise<Dispatcher.ResponseData> {
    return this.tracer ? this.tracer.call(model, req, (traced) => this.route(model, traced)) : this.route(model, req);
  }

  private route(model: CatalogModel, req: UpstreamRequest): Promise<Dispatcher.ResponseData> {
    const body = { replayable: isReplayable(req.body), signal: req.signal };
    return this.router.route(model, body, req.ctx, (deployment) => this.attempt(model, deployment, req));
  }

  /** One attempt at one deployment; a failure before a 2xx head is thrown as AttemptFailed. */
  private async attempt(model: CatalogModel, deployment: DeploymentConfig, req: UpstreamRequest): Promise<Dispatcher.ResponseData> {
    const startedAt = this.observer === null ? 0 : performance.now();
    let response: Dispatcher.ResponseData;
    try {
      response = await this.dispatch(model, deployment, req);
    } catch (error) {
      this.observe(model, error instanceof ApiError ? error.code : 'internal_error', startedAt);
      if (error instanceof ApiError) throw new AttemptFailed(error, null);
      throw error;
    }
    if (response.statusCode < 300) {
      this.observe(model, 'ok', startedAt);
      return response;
    }
    const text = await readErrorText(response, ERROR_TEXT_BYTES);
    const error = upstreamErrorFor(model, response.statusCode, response.headers['retry-after'], text);
    this.observe(model, error.code, startedAt);
    throw new AttemptFailed(error, response.statusCode);
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

  private async dispatch(model: CatalogModel, deployment: DeploymentConfig, req: UpstreamRequest): Promise<Dispatcher.ResponseData> {
    const form = req.form?.toRequest();
    const headers: Record<string, string> = form ? copyWith(req.headers ?? {}, form.headers) : copyWith(req.headers ?? {});
    if (deployment.api_key) headers.authorization = `Bearer ${deployment.api_key}`;
    let body = form?.body ?? req.body;
    if (req.json !== undefined) {
      body = Buffer.from(JSON.stringify(req.json));
      headers['content-type'] = 'application/json';
    }
    try {
      // The agent itself rather than undici's `request(url, ...)`, whose options spread would cost every
      // call two hidden classes of its own (src/common/copy-with.ts).
      const url = new URL(`${deployment.base_url.replace(/\/$/, '')}${req.path}`);
      return await this.agent.request({
        origin: url.origin,
        path: `${url.pathname}${url.search}`,
        method: req.method ?? 'POST',
        headers,
        body,
        signal: req.signal,
        headersTimeout: deployment.timeout_ms,
        bodyTimeout: deployment.timeout_ms,
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
