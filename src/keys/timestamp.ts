// Expiry times as the key API takes them: RFC 3339 date-times, read as instants (stored as ISO UTC).

/** RFC 3339 date-time without leap seconds, months of 30 days and February past 29 excluded (the document states it). */
export const TIMESTAMP_PATTERN =
  '^\\d{4}-(?:(?:0[13578]|1[02])-(?:0[1-9]|[12]\\d|3[01])|(?:0[469]|11)-(?:0[1-9]|[12]\\d|30)|02-(?:0[1-9]|1\\d|2\\d))' +
  '[Tt](?:[01]\\d|2[0-3]):[0-5]\\d:[0-5]\\d(?:\\.\\d+)?(?:[Zz]|[+-](?:[01]\\d|2[0-3]):[0-5]\\d)$';
const TIMESTAMP = new RegExp(TIMESTAMP_PATTERN);

/** An RFC 3339 date-time (the document's `format: date-time`), as an ISO instant; null if not one (also 29 February of a common year). */
export function timestampOf(value: unknown): string | null {
  if (typeof value !== 'string' || !TIMESTAMP.test(value)) return null;
  const year = Number(value.slice(0, 4));
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  if (!leap && value.slice(5, 10) === '02-29') return null;
  return new Date(Date.parse(value.toUpperCase())).toISOString();
}
