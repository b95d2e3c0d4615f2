// Cost buckets are UTC days, named `YYYY-MM-DD` in the read model and bounded by Unix seconds in the API.

export const SECONDS_PER_DAY = 86_400;

/** A UTC day, `YYYY-MM-DD`. */
export type UtcDay = string;

export function dayOfUnixSeconds(seconds: number): UtcDay {
  return new Date(floorToDay(seconds) * 1000).toISOString().slice(0, 10);
}

export function unixSecondsOfDay(day: UtcDay): number {
  const milliseconds = Date.parse(`${day}T00:00:00Z`);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day) || Number.isNaN(milliseconds)) throw new Error(`not a UTC day: ${day}`);
  return milliseconds / 1000;
}

/** The last day named, by its number since the epoch: the charges of a page nearly always share one. */
let lastDayNumber = Number.NaN;
let lastDayName: UtcDay = '';

/**
 * The UTC day an ISO-8601 timestamp falls on (`occurredAt` of billing events). Three folds read it for
 * every charge; naming a day takes a Date and its ISO text (about 1 µs), so the last one is kept.
 */
export function dayOfTimestamp(timestamp: string): UtcDay {
  const milliseconds = Date.parse(timestamp);
  if (Number.isNaN(milliseconds)) throw new Error(`not a timestamp: ${timestamp}`);
  const dayNumber = Math.floor(milliseconds / 86_400_000);
  if (dayNumber !== lastDayNumber) {
    lastDayName = dayOfUnixSeconds(Math.floor(milliseconds / 1000));
    lastDayNumber = dayNumber;
  }
  return lastDayName;
}

export function floorToDay(seconds: number): number {
  return Math.floor(seconds / SECONDS_PER_DAY) * SECONDS_PER_DAY;
}

export function ceilToDay(seconds: number): number {
  return Math.ceil(seconds / SECONDS_PER_DAY) * SECONDS_PER_DAY;
}
