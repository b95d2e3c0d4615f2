import { COMPACT_ROWS, PLAIN_ROWS, decodeId, decodeRecordedAt, decodeStream } from './row-codec';

const UUID = '01a20e3c-cf30-820b-a04f-8fd66793a701';

describe('row codec', () => {
  it('stores a canonical UUID as its 16 bytes and gives it back', () => {
    const stored = COMPACT_ROWS.id(UUID);
    expect(Buffer.isBuffer(stored) && stored.length).toBe(16);
    expect(decodeId(stored)).toBe(UUID);
  });

  it('keeps any other id as text, so it reads back exactly (upper case, braces, free text)', () => {
    for (const id of [UUID.toUpperCase(), `{${UUID}}`, 'key-demo', '', `${UUID}0`]) {
      expect(COMPACT_ROWS.id(id)).toBe(id);
      expect(decodeId(COMPACT_ROWS.id(id))).toBe(id);
    }
  });

  it('stores a request stream as a tag byte and the UUID, every other stream as text', () => {
    const stored = COMPACT_ROWS.stream(`request-${UUID}`);
    expect(Buffer.isBuffer(stored) && stored.length).toBe(17);
    expect(decodeStream(stored)).toBe(`request-${UUID}`);
    for (const stream of ['budget-org-demo', 'request-not-a-uuid', `request-${UUID.toUpperCase()}`, `organization-${UUID}`]) {
      expect(COMPACT_ROWS.stream(stream)).toBe(stream);
    }
    expect(() => decodeStream(Buffer.alloc(16))).toThrow('unknown stored stream id');
  });

  it('stores recorded_at as Unix milliseconds and gives the same ISO text back', () => {
    const at = '2026-11-24T15:46:35.985Z';
    expect(COMPACT_ROWS.recordedAt(at)).toBe(Date.parse(at));
    expect(decodeRecordedAt(COMPACT_ROWS.recordedAt(at))).toBe(at);
    expect(decodeRecordedAt(at)).toBe(at);
  });

  it('leaves every column as it is in the plain format of older stores', () => {
    expect([PLAIN_ROWS.id(UUID), PLAIN_ROWS.stream(`request-${UUID}`), PLAIN_ROWS.payload('{"a":1}'), PLAIN_ROWS.recordedAt('2026-11-24T15:46:35.985Z')])
      .toEqual([UUID, `request-${UUID}`, '{"a":1}', '2026-11-24T15:46:35.985Z']);
  });
});
