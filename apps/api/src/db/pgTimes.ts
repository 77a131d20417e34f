/**
 * PostgreSQL's text form of a `timestamptz` in a UTC session ('2026-11-23 10:00:00.5+00') as the ISO
 * string SQLite rows carry ('2026-11-23T10:00:00.500Z'). Rewritten by hand: parsing through `Date`
 * costs microseconds a value, and a company-wide read holds a hundred thousand of them. Any other
 * form (another offset, a year past 9999, BC, infinity) goes through `Date` as before.
 */
export function pgTimeToIso(value: string): string {
  const length = value.length;
  if (
    (length === 22 || (length >= 24 && length <= 29 && value.charCodeAt(19) === 46)) &&
    value.charCodeAt(10) === 32 &&
    value.endsWith('+00')
  ) {
    const fraction = length === 22 ? '000' : (value.slice(20, length - 3) + '00').slice(0, 3);
    return `${value.slice(0, 10)}T${value.slice(11, 19)}.${fraction}Z`;
  }
  return new Date(value).toISOString();
}
