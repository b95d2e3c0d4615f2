// What /readyz reads, handed over by the composition root: the catalog, the store's head, the
// background services and the Kafka relay's last status. Readiness stays cheap: one head-position
// read and in-memory state; no backlog is read while answering a probe.
import type { BackgroundService } from '../common/background-service';
import type { EventStore } from '../event-store/event-store.port';

export interface ReadinessSources {
  catalogLoaded(): boolean;
  eventStore: Pick<EventStore, 'headPosition'>;
  services: readonly BackgroundService[];
  spoolCounts(): object;
  relayStatus: (() => unknown) | null;
}

export interface ReadinessReport {
  ready: boolean;
  body: Record<string, unknown>;
}

export class Readiness {
  constructor(private readonly sources: ReadinessSources) {}

  async report(): Promise<ReadinessReport> {
    const { sources } = this;
    const checks: Record<string, boolean> = { catalog: sources.catalogLoaded() };
    checks.event_store = await sources.eventStore.headPosition().then(() => true, () => false);
    const details: Record<string, unknown> = {};
    for (const service of sources.services) {
      checks[service.name] = service.ready();
      const serviceDetails = service.details?.();
      if (serviceDetails) details[service.name] = serviceDetails;
    }
    const ready = Object.values(checks).every(Boolean);
    const kafka = sources.relayStatus ? { kafka_relay: sources.relayStatus() } : {};
    return { ready, body: { status: ready ? 'ready' : 'not_ready', checks, details, spool: sources.spoolCounts(), ...kafka } };
  }
}
