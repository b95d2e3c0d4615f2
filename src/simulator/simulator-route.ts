// What every simulator route file shares: the route-module shape and the simulated failure modes
// (fail, cold, stall) a test sets per model. A leaf, so the route files and the server that lists
// them do not import each other.
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { SimulatorControl } from './simulator-control';

export type SimulatorRoutes = (app: FastifyInstance, control: SimulatorControl) => void | Promise<void>;

/**
 * Applies the model's simulated mode. Returns true when it already answered (fail/cold), so the
 * route must stop; a stall delays and then lets the route answer normally.
 */
export async function applyMode(control: SimulatorControl, model: string, reply: FastifyReply): Promise<boolean> {
  const mode = control.modeOf(model);
  if (mode.kind === 'stall') await new Promise((r) => setTimeout(r, mode.ms));
  if (mode.kind === 'fail') {
    await reply.code(mode.status).send(mode.body ?? { error: { message: 'simulated failure', type: 'server_error', code: null, param: null } });
    return true;
  }
  if (mode.kind === 'cold') {
    await reply
      .code(503)
      .header('retry-after', String(mode.retryAfterSeconds))
      .send({ error: { message: 'model is starting', type: 'service_unavailable', code: null, param: null } });
    return true;
  }
  return false;
}
