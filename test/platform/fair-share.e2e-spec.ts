// One organization's slow requests must not starve the others of a model (docs/model-status.md,
// "Fair share"): the noisy organization is shed at its share of max_concurrency while another
// organization's request to the same model is still answered.
import { startTestGateway, TestGateway } from '../support/test-gateway';
import { startHeldUpstream, HeldUpstream } from '../support/held-upstream';
import { hashApiKey } from '../../src/access/key-hash';

const CAP = 64;

describe('fair share of a model between organizations', () => {
  jest.setTimeout(60_000);
  let gw: TestGateway;
  let upstream: HeldUpstream;

  beforeAll(async () => {
    upstream = await startHeldUpstream();
    gw = await startTestGateway({
      configure: (config) => {
        config.organizations[0].rate_limit = { requests: 10_000, window_seconds: 60 };
        config.organizations.push({ id: 'org-quiet', payment_method: true, rate_limit: { requests: 60, window_seconds: 60 } });
        config.keys.push({ id: 'k-quiet', hash: hashApiKey('quiet-key'), owner: 't', organizations: ['org-quiet'], default_organization: 'org-quiet' });
        const aria = config.models.find((m) => m.id === 'aria')!;
        delete aria.deployments; // its upstream, as changed here, is then its one deployment
        Object.assign(aria.upstream, { base_url: upstream.baseUrl, health_url: null, max_concurrency: CAP });
      },
    });
  });
  afterAll(async () => {
    upstream.releaseAll();
    await gw.close();
    await upstream.close();
  });

  const chat = (text: string, key?: string) =>
    gw.openai({ apiKey: key }).chat.completions.create({ model: 'aria', messages: [{ role: 'user', content: text }] }).then(
      () => 200 as const,
      (e: { status: number; headers: Headers; error: { code: string } }) => [e.status, e.headers.get('retry-after'), e.error.code],
    );

  it('sheds the noisy organization at half the cap and still answers another organization', async () => {
    const startedAt = performance.now();
    let settled = 0;
    let allRefused: () => void = () => undefined;
    const refused = new Promise<void>((resolve) => (allRefused = resolve));
    const noisy = Array.from({ length: CAP }, () => chat('hold').finally(() => ++settled === CAP / 2 && allRefused()));
    await upstream.waitForHeld(CAP / 2);
    // Every noisy request over its share has been answered before the quiet organization asks.
    await refused;
    expect(upstream.held()).toBe(CAP / 2);
    expect(await chat('hello', 'quiet-key')).toBe(200);
    console.log(`quiet organization answered while ${upstream.held()} noisy requests were held, after ${(performance.now() - startedAt).toFixed(0)} ms`);
    upstream.releaseAll();
    const outcomes = await Promise.all(noisy);
    expect(outcomes.filter((o) => o === 200)).toHaveLength(CAP / 2);
    expect(outcomes.filter((o) => o !== 200)).toEqual(Array(CAP / 2).fill([503, '1', 'organization_share_exceeded']));
  });
});
