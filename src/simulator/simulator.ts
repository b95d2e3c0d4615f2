// The project's own upstream simulator: an OpenAI-compatible model server (the wire protocol vLLM
// and OpenAI speak) with deterministic payloads. Labelled a simulator; the gateway never knows.
import Fastify, { FastifyInstance, FastifyRequest } from 'fastify';
import { SimulatorControl, SimulatorMode } from './simulator-control';
import { SIMULATOR_ROUTES } from './simulator.routes';
import { applyMode } from './simulator-route';

export interface RunningSimulator {
  app: FastifyInstance;
  control: SimulatorControl;
  url: string;
  close(): Promise<void>;
}

export async function startSimulator(options: { port?: number; host?: string } = {}): Promise<RunningSimulator> {
  const control = new SimulatorControl();
  const app = Fastify({ bodyLimit: 200 * 1024 * 1024, logger: false });
  app.addContentTypeParser('multipart/form-data', (_req, payload, done) => done(null, payload));
  app.get('/health', async (req: FastifyRequest<{ Querystring: { model?: string } }>, reply) => {
    control.record(req.query.model ?? '*', '/health');
    if (await applyMode(control, req.query.model ?? '*', reply)) return;
    return { status: 'ok' };
  });
  app.post('/_sim/mode', async (req: FastifyRequest<{ Body: { model: string; mode: SimulatorMode } }>) => {
    control.set(req.body.model, req.body.mode);
    return { ok: true };
  });
  app.post('/_sim/reset', async () => {
    control.reset();
    return { ok: true };
  });
  for (const routes of SIMULATOR_ROUTES) await routes(app, control);
  const address = await app.listen({ port: options.port ?? 0, host: options.host ?? '127.0.0.1' });
  return { app, control, url: address, close: () => app.close() };
}
