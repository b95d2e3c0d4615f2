// Liveness (the process answers) and readiness (event store reachable, catalog loaded, background
// consumers caught up, no projection stuck or holding unacknowledged parked events) for orchestrators.
import { Controller, Get, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { Readiness } from './readiness';

@Controller()
export class HealthController {
  constructor(private readonly readiness: Readiness) {}

  @Get('healthz')
  live(): { status: 'ok' } {
    return { status: 'ok' };
  }

  @Get('readyz')
  async ready(@Res({ passthrough: true }) reply: FastifyReply): Promise<Record<string, unknown>> {
    const { ready, body } = await this.readiness.report();
    if (!ready) void reply.code(503).header('retry-after', '1');
    return body;
  }
}
