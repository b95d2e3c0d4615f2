// The log line of a billing append that failed names its cause (issue 26 item 10: it was dropped),
// as one JSON line with the request id, so an operator can tell a full disk from a lost connection.
import { SqliteEventStore } from '../../src/event-store/sqlite/sqlite-event-store';
import { FaultyEventStore } from '../support/faulty-event-store';
import { startTestGateway, type TestGateway } from '../support/test-gateway';

describe('billing failure log', () => {
  let gw: TestGateway;
  let store: FaultyEventStore;
  let output = '';

  beforeAll(async () => {
    gw = await startTestGateway({
      env: { logLevel: 'info' },
      logStream: { write: (chunk: string) => void (output += chunk) },
      overrides: async (dataDir) => ({ eventStore: (store = new FaultyEventStore(await SqliteEventStore.open(dataDir))) }),
    });
  });
  afterAll(() => gw.close());

  it('logs the cause and the request id when the usage cannot be appended, and answers 503', async () => {
    store.failing.add('UsageMeasured');
    const res = await gw.postJson('/v1/chat/completions', { model: 'aria', messages: [{ role: 'user', content: 'hello' }] });
    store.failing.clear();
    expect(res.status).toBe(503);
    const requestId = res.headers.get('x-request-id');
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('billing_unavailable');

    const entries = output.split('\n').filter(Boolean).map((line) => JSON.parse(line) as Record<string, any>);
    const failure = entries.find((entry) => entry.msg === 'billing append failed');
    expect(failure).toMatchObject({ level: 50, context: 'billing', requestId, delivered: false });
    expect(failure!.err.message).toContain('SQLITE_READONLY');
    expect(await gw.events('UsageMeasured')).toHaveLength(0);
  });
});
