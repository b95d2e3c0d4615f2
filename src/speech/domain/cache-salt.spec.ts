import { referenceCacheSalt } from './cache-salt';

describe('referenceCacheSalt', () => {
  const reference = Buffer.from('RIFF....WAVE reference clip');

  it('is the same for the same organization and reference, so repeated clones share a cache prefix', () => {
    expect(referenceCacheSalt('org-a', reference)).toBe(referenceCacheSalt('org-a', Buffer.from(reference)));
    expect(referenceCacheSalt('org-a', reference)).toMatch(/^[0-9a-f]{64}$/);
  });

  it('differs between organizations and between references', () => {
    expect(referenceCacheSalt('org-a', reference)).not.toBe(referenceCacheSalt('org-b', reference));
    expect(referenceCacheSalt('org-a', reference)).not.toBe(referenceCacheSalt('org-a', Buffer.from('another clip')));
  });
});
