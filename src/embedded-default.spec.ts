import { embeddedConfig, EMBEDDED_MANAGEMENT_KEY_ID } from './embedded-default';
import { readRuntimeEnv } from './config/gateway-config';
import { hashApiKey } from './access/key-hash';

describe('embedded default management key', () => {
  it('configures GATEWAY_MANAGEMENT_KEY by hash only, and none without it', () => {
    expect(readRuntimeEnv({ GATEWAY_MANAGEMENT_KEY: 'sk-mgmt-1' }).managementKey).toBe('sk-mgmt-1');
    expect(readRuntimeEnv({ GATEWAY_MANAGEMENT_KEY: '' }).managementKey).toBeNull();
    const { config } = embeddedConfig('http://127.0.0.1:1', null, 'sk-mgmt-1');
    expect(config.management_keys).toEqual([{ id: EMBEDDED_MANAGEMENT_KEY_ID, hash: hashApiKey('sk-mgmt-1') }]);
    expect(JSON.stringify(config)).not.toContain('sk-mgmt-1');
    expect(embeddedConfig('http://127.0.0.1:1', null).config.management_keys).toEqual([]);
  });
});
