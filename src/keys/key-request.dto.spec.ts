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
import { PRINTABLE_NAME_RULE } from './printable-name';

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
    expect(await issue({ name: 'ü'.repeat(MAX_KEY_NAME_LENGTH) })).toEqual([]);
    expect(await issue({ name: `${'n'.repeat(MAX_KEY_NAME_LENGTH)}\u202e` })).toEqual(['name']);
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

describe('key names', () => {
  const printable = ['ops key', 'clé de production', '生产密钥', 'emoji 🔑', 'tab-free-name_1.2', 'a\u200dzwj', 'رمز'];
  const unprintable = [
    ['NUL', 'a\u0000b'], ['CR', 'a\rb'], ['LF', 'a\nb'], ['TAB', 'a\tb'], ['ESC', '\u001b[31mred'], ['unit separator', 'a\u001fb'],
    ['DEL', 'a\u007fb'], ['C1 padding', 'a\u0080b'], ['C1 CSI', 'a\u009bb'], ['last C1', 'a\u009fb'],
    ['LRE', 'a\u202ab'], ['RLO', 'evil\u202etxt.exe'], ['LRI', 'a\u2066b'], ['PDI', 'a\u2069b'], ['LRM', 'a\u200eb'], ['RLM', 'a\u200fb'],
    ['ALM', 'a\u061cb'], ['line separator', 'a\u2028b'], ['paragraph separator', 'a\u2029b'],
  ];

  it.each(printable)('takes %s', async (name) => {
    expect(await issue({ name })).toEqual([]);
    expect(await failed(ChangeKeyRequestDto, { name })).toEqual([]);
  });

  it.each(unprintable)('refuses a name with %s, on issue and on change, with a message saying why', async (_what, name) => {
    const [error] = await validate(plainToInstance(IssueKeyRequestDto, { name, organizations: ['org-a'] }));
    expect(error.property).toBe('name');
    expect(Object.values(error.constraints!)).toContain(`name ${PRINTABLE_NAME_RULE}`);
    expect(await failed(ChangeKeyRequestDto, { name })).toEqual(['name']);
  });

  it('leaves the characters just outside the refused ranges alone', async () => {
    for (const char of ['\u0020', '\u00a0', '\u061b', '\u061d', '\u200d', '\u2010', '\u202f', '\u2065', '\u206a']) {
      expect(await issue({ name: `a${char}b` })).toEqual([]);
    }
  });
});
