import { readableBanner, structuredBannerFields } from './banner';

describe('readableBanner (npm start at a terminal)', () => {
  it('is the banner the README shows, for the embedded demo', () => {
    const demo = { simulatorUrl: 'http://127.0.0.1:41235', organization: 'org-demo', rateLimit: '600 requests per 60 s', apiKey: 'sk-gw-abc', keptIn: 'data/demo-key' };
    expect(readableBanner('http://127.0.0.1:8080', demo)).toBe(
      'inference gateway listening on http://127.0.0.1:8080\n' +
        '  base URL:           http://127.0.0.1:8080/v1\n' +
        '  upstream simulator: http://127.0.0.1:41235 (simulated models, not real ones)\n' +
        '  demo organization:  org-demo (600 requests per 60 s)\n' +
        '  demo API key:       sk-gw-abc (kept in data/demo-key)\n',
    );
  });

  it('names GATEWAY_DEMO_KEY when the key came from it, and leaves the demo out for an operator configuration', () => {
    const demo = { simulatorUrl: 'http://s', organization: 'org-demo', rateLimit: null, apiKey: 'sk-gw-abc', keptIn: 'GATEWAY_DEMO_KEY' };
    expect(readableBanner('http://h:1', demo)).toContain('  demo organization:  org-demo\n  demo API key:       sk-gw-abc (GATEWAY_DEMO_KEY)\n');
    expect(readableBanner('http://h:1', null)).toBe('inference gateway listening on http://h:1\n  base URL:           http://h:1/v1\n');
  });
});

describe('structuredBannerFields (npm start writing to a pipe or a log collector)', () => {
  it('names the file the demo key is kept in, never the key', () => {
    const demo = { simulatorUrl: 'http://s', organization: 'org-demo', rateLimit: '600 requests per 60 s', apiKey: 'sk-gw-secret-demo-key', keptIn: '/var/lib/gw/demo-key' };
    const fields = structuredBannerFields('http://h:1', demo);
    expect(fields).toEqual({
      url: 'http://h:1', baseUrl: 'http://h:1/v1', simulatorUrl: 'http://s', simulated: true,
      demoOrganization: 'org-demo', demoRateLimit: '600 requests per 60 s', demoKeyFile: '/var/lib/gw/demo-key',
    });
    expect(JSON.stringify(fields)).not.toContain('sk-gw-secret-demo-key');
  });

  it('names GATEWAY_DEMO_KEY when the key came from it, and holds no demo field for an operator configuration', () => {
    const demo = { simulatorUrl: 'http://s', organization: 'org-demo', rateLimit: null, apiKey: 'sk-gw-from-env', keptIn: 'GATEWAY_DEMO_KEY' };
    expect(structuredBannerFields('http://h:1', demo)).toMatchObject({ demoKeyVariable: 'GATEWAY_DEMO_KEY' });
    expect(JSON.stringify(structuredBannerFields('http://h:1', demo))).not.toContain('sk-gw-from-env');
    expect(structuredBannerFields('http://h:1', null)).toEqual({ url: 'http://h:1', baseUrl: 'http://h:1/v1' });
  });
});
