// `POST /v1/keys` with an Idempotency-Key, over real HTTP (docs/idempotency.md): a retried key issuance
// gets the first answer (the same key and secret, replayed) instead of a second key; another body under
// the key is 422; concurrent duplicates issue exactly one key; only a management key sees the replay.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { startTestGateway, TestGateway } from '../support/test-gateway';
import { hashApiKey } from '../../src/access/key-hash';

const MANAGEMENT_KEY = 'sk-mgmt-idem-0123456789abcdef';
jest.setTimeout(60_000);

interface Answer {
  status: number;
  headers: Headers;
  text: string;
  body: any;
}

describe('POST /v1/keys with an Idempotency-Key', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway({ configure: (config) => config.management_keys.push({ id: 'mgmt-idem', hash: hashApiKey(MANAGEMENT_KEY) }) });
  });
  afterAll(() => gw?.close());

  async function issue(body: unknown, idempotencyKey: string, apiKey = MANAGEMENT_KEY): Promise<Answer> {
    const response = await fetch(`${gw.baseUrl}/v1/keys`, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json', 'idempotency-key': idempotencyKey },
      body: JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, headers: response.headers, text, body: JSON.parse(text) };
  }

  const issuedNamed = async (name: string) => (await gw.events('ApiKeyIssued')).filter((event) => (event.data as any).name === name);
  async function listedNamed(name: string): Promise<unknown[]> {
    const response = await fetch(`${gw.baseUrl}/v1/keys?limit=100`, { headers: { authorization: `Bearer ${MANAGEMENT_KEY}` } });
    expect(response.status).toBe(200);
    return ((await response.json()) as { data: { name: string }[] }).data.filter((key) => key.name === name);
  }

  it('answers a retry with the first answer byte for byte, and issues one key', async () => {
    const body = { name: 'idem-retry', organizations: [gw.orgId], limit_usd: '1.5' };
    const first = await issue(body, 'issue-retry-1');
    expect(first.status).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    expect(first.body.key).toMatch(/^sk-gw-/);

    const retry = await issue({ limit_usd: '1.5', organizations: [gw.orgId], name: 'idem-retry' }, 'issue-retry-1');
    expect(retry.status).toBe(201);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(retry.headers.get('x-request-id')).toBe(first.headers.get('x-request-id'));
    expect(retry.text).toBe(first.text);
    expect(retry.body).toMatchObject({ id: first.body.id, key: first.body.key });
    expect(await issuedNamed('idem-retry')).toHaveLength(1);
    expect(await listedNamed('idem-retry')).toHaveLength(1);
    // The kept answer holds the plain secret until it is swept: its database (and the WAL the row sits
    // in until a checkpoint) is readable by the gateway's user only.
    const database = join(gw.dataDir, 'idempotency-responses.sqlite');
    const files = [database, `${database}-wal`, `${database}-shm`].filter((file) => existsSync(file));
    expect(files.some((file) => readFileSync(file).includes(first.body.key))).toBe(true);
    for (const file of files) expect({ file, mode: statSync(file).mode & 0o077 }).toEqual({ file, mode: 0 });
    // The replayed secret is the live key: it authenticates on a model endpoint.
    const chat = await gw.postJson('/v1/chat/completions', { model: 'aria', messages: [{ role: 'user', content: 'hi' }] }, { headers: { authorization: `Bearer ${retry.body.key}` } });
    expect(chat.status).toBe(200);
  });

  it('answers 422 idempotency_key_reused for another body under the key, and issues nothing', async () => {
    expect((await issue({ name: 'idem-reused', organizations: [gw.orgId] }, 'issue-reused-1')).status).toBe(201);
    const other = await issue({ name: 'idem-reused-other', organizations: [gw.orgId] }, 'issue-reused-1');
    expect(other.status).toBe(422);
    expect(other.body).toEqual({
      error: { message: expect.stringContaining('another request'), type: 'invalid_request_error', param: 'Idempotency-Key', code: 'idempotency_key_reused' },
    });
    expect(await issuedNamed('idem-reused-other')).toHaveLength(0);
    expect(await issuedNamed('idem-reused')).toHaveLength(1);
  });

  it('issues exactly one key for 10 concurrent duplicates; the others are 409 in use or the replay', async () => {
    const body = { name: 'idem-concurrent', organizations: [gw.orgId] };
    const answers = await Promise.all(Array.from({ length: 10 }, () => issue(body, 'issue-concurrent-1')));
    const created = answers.filter((answer) => answer.status === 201 && answer.headers.get('idempotent-replayed') === null);
    const replayed = answers.filter((answer) => answer.headers.get('idempotent-replayed') === 'true');
    const inUse = answers.filter((answer) => answer.status === 409);
    console.log(`10 concurrent key issuances: ${created.length} created, ${replayed.length} replayed, ${inUse.length} answered 409`);
    expect(created).toHaveLength(1);
    expect(replayed.length + inUse.length).toBe(9);
    for (const answer of replayed) expect(answer.text).toBe(created[0].text);
    for (const answer of inUse) {
      expect(answer.body.error).toMatchObject({ code: 'idempotency_key_in_use', param: 'Idempotency-Key' });
      expect(Number(answer.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    }
    expect(await issuedNamed('idem-concurrent')).toHaveLength(1);
    expect(await listedNamed('idem-concurrent')).toHaveLength(1);
  });

  it('shows the replay only to a management key: a model key with the same key and body is 403', async () => {
    const body = { name: 'idem-guarded', organizations: [gw.orgId] };
    const first = await issue(body, 'issue-guarded-1');
    expect(first.status).toBe(201);
    const byModelKey = await issue(body, 'issue-guarded-1', gw.apiKey);
    expect(byModelKey.status).toBe(403);
    expect(byModelKey.body.error.code).toBe('management_key_required');
    expect(byModelKey.text).not.toContain(first.body.key);
    const anonymous = await issue(body, 'issue-guarded-1', 'sk-not-a-key');
    expect(anonymous.status).toBe(401);
    expect(anonymous.text).not.toContain(first.body.key);
  });
});
