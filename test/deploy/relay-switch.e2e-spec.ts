// GATEWAY_KAFKA_RELAY end to end: with brokers configured, a serving replica started with it off runs no
// relay (its /readyz has no kafka_relay), while the relay process (on) reports its lag there. The broker
// address is a closed loopback port: the relay never waits for Kafka to start.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startGatewayProcess, type GatewayProcess } from '../support/gateway-process';

async function readyz(switchValue: 'on' | 'off'): Promise<Record<string, unknown>> {
  const dataDir = mkdtempSync(join(tmpdir(), `relay-${switchValue}-`));
  let gateway: GatewayProcess | undefined;
  try {
    gateway = await startGatewayProcess({ GATEWAY_DATA_DIR: dataDir, KAFKA_BROKERS: '127.0.0.1:9', GATEWAY_KAFKA_RELAY: switchValue, EVENTSTORE_CONNECTION_STRING: '' });
    const response = await fetch(`${gateway.url}/readyz`);
    return (await response.json()) as Record<string, unknown>;
  } finally {
    await gateway?.kill();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

describe('GATEWAY_KAFKA_RELAY', () => {
  it('off: the replica runs no relay although KAFKA_BROKERS is set', async () => {
    const body = await readyz('off');
    expect(body).not.toHaveProperty('kafka_relay');
    expect(body.checks).not.toHaveProperty('kafka_relay');
  }, 90_000);

  it('on: the relay process runs it and reports its lag', async () => {
    const body = await readyz('on');
    expect(body.kafka_relay).toMatchObject({ eventsBehind: expect.any(Number) });
    // null until the relay has passed an event: events with no topic (model status, admissions) move it
    // without Kafka, so whether it has by the time /readyz answers depends on the prober's timing.
    const { checkpoint } = body.kafka_relay as { checkpoint: unknown };
    expect(checkpoint === null || typeof checkpoint === 'string').toBe(true);
    expect(body.checks).toHaveProperty('kafka_relay', true);
  }, 90_000);
});
