// Media work per organization: the wall-clock seconds ffmpeg/ffprobe children ran (what a tenant's
// media costs the machine, billed or not), the children run, and the requests refused media_busy.
import { Gauge, type Registry } from 'prom-client';
import type { MediaSlots } from '../../media/admission/media-slots';
import type { MediaObserver } from '../../media/media-work';
import { HotCounter, type CounterSeries } from './hot-metrics';
import { OTHER_ORGANIZATION } from './label-values';

interface OrganizationSeries {
  seconds: CounterSeries;
  processes: CounterSeries;
  busy: CounterSeries | null;
}

export class MediaMetrics implements MediaObserver {
  private readonly seconds: HotCounter<'organization'>;
  private readonly processes: HotCounter<'organization'>;
  private readonly busy: HotCounter<'organization'>;
  private readonly byOrganization = new Map<string, OrganizationSeries>();

  constructor(private readonly registry: Registry, private readonly organizations: ReadonlySet<string>) {
    this.seconds = new HotCounter({ name: 'gateway_media_process_seconds_total', help: 'Wall-clock seconds of ffmpeg/ffprobe children run for requests, by organization (unconfigured: other).', labelNames: ['organization'], registry });
    this.processes = new HotCounter({ name: 'gateway_media_processes_total', help: 'ffmpeg/ffprobe children run for requests, by organization (unconfigured: other).', labelNames: ['organization'], registry });
    this.busy = new HotCounter({ name: 'gateway_media_busy_total', help: 'Media processes refused media_busy (no slot within the queue wait, or the queue full), by organization.', labelNames: ['organization'], registry });
  }

  /** Gauges of the slots, read when scraped: children running, and waiting for a slot. */
  watchSlots(slots: Pick<MediaSlots, 'runningCount' | 'waitingCount'>): void {
    const registers = [this.registry];
    new Gauge({ name: 'gateway_media_processes_running', help: 'ffmpeg/ffprobe children running for requests now (GATEWAY_MEDIA_PROCESSES caps it).', registers, collect() { this.set(slots.runningCount()); } });
    new Gauge({ name: 'gateway_media_processes_waiting', help: 'Media processes waiting for a slot now (GATEWAY_MEDIA_QUEUE caps it).', registers, collect() { this.set(slots.waitingCount()); } });
  }

  mediaProcess(organizationId: string, seconds: number): void {
    const series = this.seriesOf(organizationId);
    series.seconds.value += seconds;
    series.processes.value += 1;
  }

  mediaBusy(organizationId: string): void {
    const series = this.seriesOf(organizationId);
    series.busy ??= this.busy.with({ organization: this.label(organizationId) });
    series.busy.value += 1;
  }

  private seriesOf(organizationId: string): OrganizationSeries {
    const organization = this.label(organizationId);
    let series = this.byOrganization.get(organization);
    if (series === undefined) {
      series = { seconds: this.seconds.with({ organization }), processes: this.processes.with({ organization }), busy: null };
      this.byOrganization.set(organization, series);
    }
    return series;
  }

  private label(organizationId: string): string {
    return this.organizations.has(organizationId) ? organizationId : OTHER_ORGANIZATION;
  }
}
