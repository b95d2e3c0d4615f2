import { startTestGateway, TestGateway } from '../support/test-gateway';

describe('smoke', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway();
  });
  afterAll(() => gw?.close());
  it('serves /healthz', async () => {
    const res = await fetch(`${gw.baseUrl}/healthz`);
    expect(res.status).toBe(200);
  });
});
