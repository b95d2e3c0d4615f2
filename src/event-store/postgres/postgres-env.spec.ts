import { readPostgresEnv } from './postgres-env';

describe('readPostgresEnv', () => {
  it('is off without GATEWAY_POSTGRES_URL (or with a blank one)', () => {
    expect(readPostgresEnv({})).toBeNull();
    expect(readPostgresEnv({ GATEWAY_POSTGRES_URL: '  ' })).toBeNull();
  });

  it('takes the URL as given and a default pool of 10', () => {
    expect(readPostgresEnv({ GATEWAY_POSTGRES_URL: 'postgres://gw@db:5432/ledger' })).toEqual({ url: 'postgres://gw@db:5432/ledger', poolSize: 10 });
  });

  it('accepts a pool size from 2 to 1000 and refuses anything else', () => {
    const withSize = (size: string) => () => readPostgresEnv({ GATEWAY_POSTGRES_URL: 'postgres:///gw', GATEWAY_POSTGRES_POOL_SIZE: size });
    expect(withSize('2')()?.poolSize).toBe(2);
    expect(withSize('1000')()?.poolSize).toBe(1000);
    for (const bad of ['1', '1001', '0', '-5', '4.5', 'ten']) expect(withSize(bad)).toThrow('GATEWAY_POSTGRES_POOL_SIZE must be a whole number from 2 to 1000');
  });
});
