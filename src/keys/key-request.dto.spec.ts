// The key API's request rules at and just past each edge, as the validation pipe applies them.
import 'reflect-metadata';
import { plainToInstance } from 'class-transformer';
import { validate } from 'class-validator';
import { IssueKeyRequestDto } from './issue-key/issue-key.request.dto';
import { ChangeKeyRequestDto } from './change-key/change-key.request.dto';
import { ListKeysRequestDto, MAX_KEY_PAGE_SIZE } from './list-keys/list-keys.request.dto';
import { SetOrganizationBudgetRequestDto } from './set-organization-budget/set-organization-budget.request.dto';
import { MAX_KEY_NAME_LENGTH, MAX_KEY_ORGANIZATIONS } from './key-fields.dto';
import { timestampOf } from './timestamp';

async function failed(type: new () => object, plain: object): Promise<string[]> {
  return (await validate(plainToInstance(type, plain))).map((e) => e.property);
}

const issue = (extra: object) => failed(IssueKeyRequestDto, { name: 'n', organizations: ['org-a'], ...extra });

describe('key API request rules', () => {
  it('takes limit_usd with 6 decimals and refuses 7, as a string or a number', async () => {
    expect(await issue({ limit_usd: '0.000001' })).toEqual([]);
    expect(await issue({ limit_usd: 0.000001 })).toEqual([]);
    expect(await issue({ limit_usd: '0.0000001' })).toEqual(['limit_usd']);
    expect(await issue({ limit_usd: 0.0000001 })).toEqual(['limit_usd']);
    expect(await issue({ limit_usd: '-1' })).toEqual(['limit_usd']);
    expect(await issue({ limit_usd: '9999999999999.999999' })).toEqual([]);
    expect(await issue({ limit_usd: '10000000000000' })).toEqual(['limit_usd']);
  });

  it(`bounds the name at ${MAX_KEY_NAME_LENGTH} characters and the organizations at ${MAX_KEY_ORGANIZATIONS}`, async () => {
    expect(await issue({ name: 'n'.repeat(MAX_KEY_NAME_LENGTH) })).toEqual([]);
    expect(await issue({ name: 'n'.repeat(MAX_KEY_NAME_LENGTH + 1) })).toEqual(['name']);
    expect(await issue({ name: '' })).toEqual(['name']);
    const orgs = (n: number) => Array.from({ length: n }, (_, i) => `org-${i}`);
    expect(await issue({ organizations: orgs(MAX_KEY_ORGANIZATIONS) })).toEqual([]);
    expect(await issue({ organizations: orgs(MAX_KEY_ORGANIZATIONS + 1) })).toEqual(['organizations']);
    expect(await issue({ organizations: [] })).toEqual(['organizations']);
    expect(await issue({ organizations: ['acme'] })).toEqual(['organizations']);
  });

  it('checks resets, expiry and the rate limit shape', async () => {
    expect(await issue({ limit_reset: 'weekly', expires_at: '2027-01-01T00:00:00Z', rate_limit: { requests: 1, window_seconds: 86_400 } })).toEqual([]);
    expect(await issue({ limit_reset: 'hourly' })).toEqual(['limit_reset']);
    expect(await issue({ expires_at: 'tomorrow' })).toEqual(['expires_at']);
    expect(await issue({ expires_at: '2027-01-01' })).toEqual(['expires_at']);
    expect(timestampOf('0001-01-01t00:00:00.5+01:00')).toBe('0000-12-31T23:00:00.500Z');
    expect(timestampOf('2027-13-01T00:00:00Z')).toBeNull();
    expect(timestampOf('2028-02-29T00:00:00Z')).toBe('2028-02-29T00:00:00.000Z');
    expect(timestampOf('2027-02-29T00:00:00Z')).toBeNull();
    expect(timestampOf('2027-04-31T00:00:00Z')).toBeNull();
    expect(timestampOf('2027-01-01T23:59:60Z')).toBeNull();
    expect(timestampOf('')).toBeNull();
    expect(await issue({ rate_limit: { requests: 0, window_seconds: 60 } })).toEqual(['rate_limit']);
    expect(await issue({ rate_limit: { requests: 1, window_seconds: 86_401 } })).toEqual(['rate_limit']);
  });

  it('lets a PATCH clear a limit with null and refuses a non-boolean disabled', async () => {
    expect(await failed(ChangeKeyRequestDto, { limit_usd: null, limit_reset: null, expires_at: null })).toEqual([]);
    expect(await failed(ChangeKeyRequestDto, { disabled: 'yes' })).toEqual(['disabled']);
  });

  it(`bounds the page size at ${MAX_KEY_PAGE_SIZE}`, async () => {
    expect(await failed(ListKeysRequestDto, { limit: String(MAX_KEY_PAGE_SIZE), offset: '0' })).toEqual([]);
    expect(await failed(ListKeysRequestDto, { limit: String(MAX_KEY_PAGE_SIZE + 1) })).toEqual(['limit']);
    expect(await failed(ListKeysRequestDto, { limit: '0' })).toEqual(['limit']);
    expect(await failed(ListKeysRequestDto, { offset: '-1' })).toEqual(['offset']);
  });

  it('requires limit_usd on a budget (null removes it)', async () => {
    expect(await failed(SetOrganizationBudgetRequestDto, { limit_usd: null })).toEqual([]);
    expect(await failed(SetOrganizationBudgetRequestDto, { limit_usd: '2.5', limit_reset: 'monthly' })).toEqual([]);
    expect(await failed(SetOrganizationBudgetRequestDto, {})).toEqual(['limit_usd']);
    expect(await failed(SetOrganizationBudgetRequestDto, { limit_usd: '0.1234567' })).toEqual(['limit_usd']);
  });
});
