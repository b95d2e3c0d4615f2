// Liveness (the process answers) and readiness (event store reachable, catalog loaded, background
// consumers caught up, no projection stuck or holding unacknowledged parked events) for orchestrators.
// Readiness stays cheap: one head-position read, the services' in-memory state, and the relay lag the
// relay counts in the background (KafkaRelay.lastStatus): no backlog is read while answering a probe.
import { Controller, Get, Inject, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { GATEWAY_RUNTIME } from '../core/core.module';
import type { GatewayRuntime } from '../core/gateway-runtime';

@Controller()
export class HealthController {
  constructor(@Inject(GATEWAY_RUNTIME) private readonly runtime: GatewayRuntime) {}

  @Get('healthz')
  live(): { status: 'ok' } {
    return { status: 'ok' };
  }

  @Get('readyz')
  async ready(@Res({ passthrough: true }) reply: FastifyReply): Promise<Record<string, unknown>> {
    const checks: Record<string, boolean> = { catalog: this.runtime.catalog.all().length > 0 };
    checks.event_store = await this.runtime.eventStore.headPosition().then(() => true, () => false);
    const details: Record<string, unknown> = {};
    for (const service of this.runtime.services) {
      checks[service.name] = service.ready();
      const serviceDetails = service.details?.();
      if (serviceDetails) details[service.name] = serviceDetails;
    }
    const ready = Object.values(checks).every(Boolean);
    if (!ready) void reply.code(503).header('retry-after', '1');
    const kafka = this.runtime.relay ? { kafka_relay: this.runtime.relay.lastStatus() } : {};
    return { status: ready ? 'ready' : 'not_ready', checks, details, spool: this.runtime.spool.counts(), ...kafka };
  }
}
