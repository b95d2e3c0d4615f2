import { Registry } from 'prom-client';
import { MediaMetrics } from './media-metrics';

describe('media metrics', () => {
  it('counts media seconds, processes and media_busy refusals per configured organization, others as other', async () => {
    const registry = new Registry();
    const metrics = new MediaMetrics(registry, new Set(['org-a']));
    metrics.mediaProcess('org-a', 1.5);
    metrics.mediaProcess('org-a', 0.25);
    metrics.mediaProcess('org-unknown', 2);
    metrics.mediaBusy('org-a');
    const text = await registry.metrics();
    expect(text).toContain('gateway_media_process_seconds_total{organization="org-a"} 1.75');
    expect(text).toContain('gateway_media_process_seconds_total{organization="other"} 2');
    expect(text).toContain('gateway_media_processes_total{organization="org-a"} 2');
    expect(text).toContain('gateway_media_busy_total{organization="org-a"} 1');
    expect(text).not.toContain('gateway_media_busy_total{organization="other"}');
  });

  it('reads the running and waiting gauges from the slots when scraped', async () => {
    const registry = new Registry();
    const slots = { running: 3, waiting: 1, runningCount() { return this.running; }, waitingCount() { return this.waiting; } };
    new MediaMetrics(registry, new Set()).watchSlots(slots);
    expect(await registry.metrics()).toContain('gateway_media_processes_running 3');
    slots.waiting = 0;
    expect(await registry.metrics()).toContain('gateway_media_processes_waiting 0');
  });
});
