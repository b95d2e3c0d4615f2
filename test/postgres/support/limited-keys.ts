// The limits the multi-host fault run must keep: for each fault, an organization with a rate limit and one
// with a spend limit (a key each) that the load starts using shortly before that fault and exhausts while
// it lasts, so every limit is reached across a fault rather than before it.
import { hashApiKey } from '../../../src/access/key-hash';

export const FAULTS = ['kill', 'cut', 'restart'] as const;
export type Fault = (typeof FAULTS)[number];

export const RATE_LIMIT = 25;
export const SPEND_LIMIT_MICROS = 2_000n;

export const rateKey = (fault: Fault) => `sk-hosts-rate-${fault}`;
export const rateOrganization = (fault: Fault) => `org-hosts-rate-${fault}`;
export const spendKey = (fault: Fault) => `sk-hosts-spend-${fault}`;
export const spendOrganization = (fault: Fault) => `org-hosts-spend-${fault}`;

/** Adds the limited organizations and keys to a config written by writeTestConfig (key `mainKey` on org-demo). */
export function addLimitedKeys(raw: any): void {
  const unlimited = { requests: 100_000, window_seconds: 60 };
  raw.organizations.find((org: { id: string }) => org.id === 'org-demo').rate_limit = unlimited;
  for (const fault of FAULTS) {
    raw.organizations.push(
      { id: rateOrganization(fault), payment_method: true, rate_limit: { requests: RATE_LIMIT, window_seconds: 3600 } },
      { id: spendOrganization(fault), payment_method: true, rate_limit: unlimited },
    );
    const key = (id: string, apiKey: string, organization: string) => ({ id, hash: hashApiKey(apiKey), owner: 'test', organizations: [organization], default_organization: organization });
    raw.keys.push(key(`key-rate-${fault}`, rateKey(fault), rateOrganization(fault)), {
      ...key(`key-spend-${fault}`, spendKey(fault), spendOrganization(fault)),
      limit_usd: (Number(SPEND_LIMIT_MICROS) / 1e6).toString(),
    });
  }
}

/** The keys the load cycles through: mostly the unlimited one; during a fault (or after them, see the test), limited keys too. */
export function keysDuring(faults: readonly Fault[], mainKey: string): string[] {
  if (faults.length === 0) return [mainKey];
  return faults.flatMap((fault) => [mainKey, rateKey(fault), mainKey, spendKey(fault), mainKey, rateKey(fault), mainKey, spendKey(fault), mainKey, mainKey]);
}
