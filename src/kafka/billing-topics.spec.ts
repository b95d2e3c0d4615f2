import type { RecordedEvent } from '../event-store/event-store.port';
import { COST_PRICED_TOPIC, toOutgoingMessage, topicFor, UPSTREAM_ATTEMPT_TOPIC, USAGE_DISPUTED_TOPIC, USAGE_MEASURED_TOPIC } from './billing-topics';

function recorded(type: string, data: unknown, metadata: Record<string, unknown> = { schemaVersion: 1 }): RecordedEvent {
  return { id: 'evt-1', type, streamId: 'request-1', revision: 0, position: '7', data, metadata, recordedAt: '2026-11-21T10:00:00.000Z' };
}

describe('billing topics', () => {
  it('names one topic per event type and schema version', () => {
    expect(USAGE_MEASURED_TOPIC).toBe('gateway.usage-measured.v1');
    expect(COST_PRICED_TOPIC).toBe('gateway.cost-priced.v1');
    expect(USAGE_DISPUTED_TOPIC).toBe('gateway.usage-disputed.v1');
    expect(topicFor('CostPriced', 2)).toBe('gateway.cost-priced.v2');
    expect(topicFor('UsageMeasured', 1, 'staging.')).toBe('staging.gateway.usage-measured.v1');
  });

  it('keys a CostPriced by organization, carries the payload as JSON and the event identity in headers', () => {
    const data = { requestId: 'req-1', organizationId: 'org-a', costUsdMicros: 1234 };
    expect(toOutgoingMessage(recorded('CostPriced', data))).toEqual({
      topic: 'gateway.cost-priced.v1',
      key: 'org-a',
      value: JSON.stringify(data),
      headers: { 'event-id': 'evt-1', 'event-type': 'CostPriced', 'schema-version': '1', 'content-type': 'application/json' },
    });
  });

  it('keys a UsageDisputed by organization like the other billing events', () => {
    const data = { requestId: 'req-1', organizationId: 'org-a', disputes: [{ field: 'prompt_tokens', reported: '1e+15', billed: 20, bound: '<= 336', reason: 'over_prompt_estimate' }] };
    expect(toOutgoingMessage(recorded('UsageDisputed', data))).toMatchObject({
      topic: 'gateway.usage-disputed.v1',
      key: 'org-a',
      value: JSON.stringify(data),
      headers: { 'event-type': 'UsageDisputed' },
    });
  });

  it('publishes every upstream attempt on its own topic, keyed by organization', () => {
    const data = { requestId: 'req-1', organizationId: 'org-a', modelId: 'aria', deploymentId: 'sim-a', attempt: 1, outcome: 'served', costOfGoodsUsdMicros: '12' };
    expect(UPSTREAM_ATTEMPT_TOPIC).toBe('gateway.upstream-attempt.v1');
    expect(toOutgoingMessage(recorded('UpstreamAttemptRecorded', data))).toMatchObject({ topic: 'gateway.upstream-attempt.v1', key: 'org-a', value: JSON.stringify(data) });
    expect(toOutgoingMessage(recorded('DeploymentStatusChanged', { modelId: 'aria' }))).toBeNull();
  });

  it('routes a payload of a newer schema version to that version’s topic', () => {
    const message = toOutgoingMessage(recorded('UsageMeasured', { organizationId: 'org-b' }, { schemaVersion: 2 }));
    expect(message).toMatchObject({ topic: 'gateway.usage-measured.v2', headers: { 'schema-version': '2' } });
  });

  it('prefixes the topic when the deployment shares its cluster', () => {
    expect(toOutgoingMessage(recorded('CostPriced', { organizationId: 'org-a' }), 'eu.')?.topic).toBe('eu.gateway.cost-priced.v1');
  });

  it('treats an event without a schema version as version 1', () => {
    expect(toOutgoingMessage(recorded('UsageMeasured', { organizationId: 'org-b' }, {}))?.topic).toBe('gateway.usage-measured.v1');
  });

  it('relays nothing for event types that stay inside the gateway', () => {
    expect(toOutgoingMessage(recorded('RequestAdmitted', { organizationId: 'org-a' }))).toBeNull();
    expect(toOutgoingMessage(recorded('ModelStatusChanged', { model: 'aria' }))).toBeNull();
  });

  it('refuses to relay a billing event without an organization to key it by', () => {
    expect(() => toOutgoingMessage(recorded('CostPriced', { requestId: 'req-1' }))).toThrow(/no organizationId/);
  });
});
