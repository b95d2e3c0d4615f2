// Builds the runtime and starts the HTTP server. Used by main.ts, the tests and the benchmarks.
import 'reflect-metadata';
import { newRequestId } from './event-store/event-ids';
import { ModulesContainer, NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import multipart from '@fastify/multipart';
import { LogController } from 'fastify';
import { AppModule } from './app.module';
import type { GatewayRuntime } from './core/gateway-runtime';
import { closeUnusedConnections } from './common/close-unused-connections';
import { refuseWhileClosing } from './common/refuse-while-closing';
import { refuseUntilCaughtUp } from './core/startup-gate';
import { ApiExceptionFilter } from './common/exception.filter';
import { ApiValidationPipe } from './common/validation.pipe';
import { memoizeValidationMetadata } from './common/validation-metadata-cache';
import { NestPinoLogger, nestLogLevels } from './common/nest-pino-logger';
import { registerBodyParsers } from './common/body-parsers';
import { BodyBudget, bodyBudgetFrom } from './common/body-budget';
import { limitBodiesInFlight } from './common/body-budget.hook';
import { answerClientError } from './common/client-errors';
import { BODY_LIMIT_BYTES, bodyDeadlinesFrom, FORM_FIELD_LIMIT_BYTES, nodeServerTimeouts } from './common/body-limits';
import { authenticateBeforeBody } from './access/authenticate-before-body.hook';
import { routeAdmissions } from './access/keyed-routes';
import { ManagementGuard } from './access/management.guard';
import { KeyGuard } from './access/key.guard';
import { installMetrics } from './observability/metrics/install-metrics';
import { recordRoutes, refuseUnservedMethods } from './common/method-not-allowed';
import { childLoggerWithCorrelation } from './observability/logging/request-log-fields';
import { crashProofCharges } from './idempotency/crash-proof-charges';

export { BODY_LIMIT_BYTES };

export interface RunningGateway {
  app: NestFastifyApplication;
  runtime: GatewayRuntime;
  url: string;
  close(): Promise<void>;
}

export async function createHttpApp(runtime: GatewayRuntime): Promise<NestFastifyApplication> {
  const deadlines = bodyDeadlinesFrom(process.env);
  const serverTimeouts = nodeServerTimeouts(deadlines);
  const adapter = new FastifyAdapter({
    bodyLimit: BODY_LIMIT_BYTES,
    // Headers on Node's deadline; bodies on the gateway's (body-budget.hook.ts), Node's request timeout behind it.
    http: serverTimeouts,
    requestTimeout: serverTimeouts.requestTimeout,
    clientErrorHandler: answerClientError,
    genReqId: newRequestId,
    requestIdHeader: false,
    // The runtime's logger (one for the whole gateway); none when silent, so no child logger per request.
    loggerInstance: runtime.env.logLevel === 'silent' ? undefined : runtime.log,
    logController: new LogController({ disableRequestLogging: runtime.env.logLevel !== 'debug', requestIdLogLabel: 'requestId' }),
    // Without a logger Fastify makes no child logger per request, unless given a factory of its own.
    childLoggerFactory: runtime.env.logLevel === 'silent' ? undefined : childLoggerWithCorrelation(runtime.tracing?.openRequest ?? null),
    return503OnClosing: false,
  });
  const app = await NestFactory.create<NestFastifyApplication>(AppModule.forRoot(runtime), adapter, {
    logger: new NestPinoLogger(adapter.getInstance().log, nestLogLevels(runtime.env.logLevel)),
    bodyParser: false,
  });
  const fastify = app.getHttpAdapter().getInstance();
  const routes = recordRoutes(fastify);
  runtime.tracing?.instrumentServer(fastify);
  registerBodyParsers(fastify, BODY_LIMIT_BYTES);
  await fastify.register(multipart, { limits: { fileSize: BODY_LIMIT_BYTES, fieldSize: FORM_FIELD_LIMIT_BYTES, files: 64 } });
  fastify.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    done();
  });
  refuseWhileClosing(fastify);
  closeUnusedConnections(fastify);
  refuseUntilCaughtUp(fastify, runtime.startup);
  installMetrics(fastify, runtime);
  limitBodiesInFlight(fastify, { budget: new BodyBudget(bodyBudgetFrom(process.env)), limitBytes: BODY_LIMIT_BYTES, deadlines });
  const errorLog = runtime.log.child({ context: 'errors' });
  authenticateBeforeBody(fastify, errorLog, routeAdmissions(app.get(ModulesContainer), [[KeyGuard, app.get(KeyGuard)], [ManagementGuard, app.get(ManagementGuard)]]));
  await crashProofCharges(fastify, runtime);
  app.useGlobalFilters(new ApiExceptionFilter(errorLog));
  memoizeValidationMetadata();
  app.useGlobalPipes(new ApiValidationPipe(runtime.tracing?.validation ?? null));
  // Nest registers the controllers' routes here; the 405s for the methods they leave out follow.
  await app.init();
  refuseUnservedMethods(fastify, routes);
  return app;
}

/** GATEWAY_SHUTDOWN_GRACE_MS: how long a stop waits for open connections before closing them (default 10 s). */
export function shutdownGraceMs(env: NodeJS.ProcessEnv): number {
  const value = Number(env.GATEWAY_SHUTDOWN_GRACE_MS ?? 10_000);
  return Number.isFinite(value) && value >= 0 ? value : 10_000;
}

export async function startGateway(runtime: GatewayRuntime): Promise<RunningGateway> {
  const app = await createHttpApp(runtime);
  await app.listen(runtime.env.port, runtime.env.host);
  const address = app.getHttpServer().address();
  const port = typeof address === 'object' && address ? address.port : runtime.env.port;
  const close = async () => {
    // Requests in flight finish; a connection still held after the grace (a client that keeps a finished
    // stream's socket busy held a stop for the 72 s keep-alive timeout) is closed.
    const server = app.getHttpServer();
    const grace = setTimeout(() => server.closeAllConnections(), shutdownGraceMs(process.env)).unref();
    await app.close();
    clearTimeout(grace);
    for (const service of [...runtime.services].reverse()) await service.stop();
    await runtime.upstream.close();
    runtime.readModels.close();
    await runtime.eventStore.close();
    await runtime.tracing?.flush();
  };
  return { app, runtime, url: `http://${runtime.env.host}:${port}`, close };
}
