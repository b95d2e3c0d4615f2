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
    expect(() => unixSecondsOfDay('2025-3-1')).toThrow('not a UTC day');
  });
});
