import { DEFAULT_ORGANIZATION_SHARE, InFlightCounts, organizationShareFrom, organizationSlots } from './fair-share';

describe('organizationSlots', () => {
  it.each([
    [64, 0.5, 32],
    [65, 0.5, 32],
    [3, 0.5, 1],
    [2, 0.5, 1],
    [1, 0.5, 1],
    [1, 0.01, 1],
    [10, 1, 10],
    [10, 0.99, 9],
  ])('cap %i with share %d leaves one organization %i slots', (cap, share, slots) => {
    expect(organizationSlots(cap, share)).toBe(slots);
  });
});

describe('organizationShareFrom', () => {
  it('defaults to a half', () => {
    expect(organizationShareFrom({})).toBe(DEFAULT_ORGANIZATION_SHARE);
    expect(organizationShareFrom({ GATEWAY_ORGANIZATION_SHARE: '' })).toBe(0.5);
  });

  it.each([['1', 1], ['0.25', 0.25], ['.3', 0.3], ['0.001', 0.001]])('accepts %s', (text, share) => {
    expect(organizationShareFrom({ GATEWAY_ORGANIZATION_SHARE: text })).toBe(share);
  });

  it.each(['0', '0.0', '1.01', '2', '-0.5', 'half', '50%', '1e-1'])('refuses %s', (text) => {
    expect(() => organizationShareFrom({ GATEWAY_ORGANIZATION_SHARE: text })).toThrow(/GATEWAY_ORGANIZATION_SHARE/);
  });
});

describe('InFlightCounts', () => {
  it('counts up and down and forgets a key at zero', () => {
    const counts = new InFlightCounts();
    counts.add('a', 1);
    counts.add('a', 1);
    counts.add('a', -1);
    expect(counts.of('a')).toBe(1);
    counts.add('a', -1);
    counts.add('a', -1);
    expect(counts.of('a')).toBe(0);
  });
});
