import { ceilToDay, dayOfTimestamp, dayOfUnixSeconds, floorToDay, unixSecondsOfDay } from './utc-day';

describe('UTC days', () => {
  it('converts between Unix seconds and day names', () => {
    expect(dayOfUnixSeconds(1_741_564_799)).toBe('2025-03-09');
    expect(dayOfUnixSeconds(1_741_564_800)).toBe('2025-03-10');
    expect(unixSecondsOfDay('2025-03-10')).toBe(1_741_564_800);
    expect(dayOfUnixSeconds(0)).toBe('1970-01-01');
  });

  it('floors and ceils to day boundaries', () => {
    expect(floorToDay(1_741_564_801)).toBe(1_741_564_800);
    expect(ceilToDay(1_741_564_801)).toBe(1_741_651_200);
    expect(ceilToDay(1_741_564_800)).toBe(1_741_564_800);
  });

  it('reads the day of an ISO timestamp in UTC', () => {
    expect(dayOfTimestamp('2025-03-10T00:30:00+01:00')).toBe('2025-03-09');
    expect(() => dayOfTimestamp('nope')).toThrow('not a timestamp');
    expect(() => dayOfTimestamp('2025-13-01T00:00:00.000Z')).toThrow('not a timestamp');
  });

  it('names each day right when consecutive timestamps cross days, years and the epoch, in any order', () => {
    const times = [0, 86_399_999, 86_400_000, -1, 1_767_225_599_999, 1_767_225_600_000, 1_767_225_599_999, 951_782_400_000, 4_102_444_799_999];
    for (const ms of times) {
      const expected = new Date(ms).toISOString().slice(0, 10);
      expect(dayOfTimestamp(new Date(ms).toISOString())).toBe(expected);
      expect(dayOfTimestamp(new Date(ms).toISOString().replace('Z', '+00:00'))).toBe(expected);
    }
    expect(dayOfTimestamp('2025-02-30T00:00:00.000Z')).toBe(new Date(Date.parse('2025-02-30T00:00:00.000Z')).toISOString().slice(0, 10));
    expect(() => unixSecondsOfDay('2025-3-1')).toThrow('not a UTC day');
  });
});
