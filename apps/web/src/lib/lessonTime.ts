/** Lesson times (docs/product.md §Formats): durations as HH:MM:SS and dates of the course page's tooltips. */

const pad = (n: number): string => String(n).padStart(2, '0');

/** Seconds as HH:MM:SS; hours grow past 99 when they must, negatives count as 0. */
export function formatDuration(totalSeconds: number): string {
  const s = Math.max(0, Math.floor(totalSeconds));
  return `${pad(Math.floor(s / 3600))}:${pad(Math.floor((s % 3600) / 60))}:${pad(s % 60)}`;
}

/** Whole seconds from one moment to another (ISO strings); 0 when either is missing or invalid. */
export function secondsBetween(from: string | null | undefined, to: string | null | undefined): number {
  if (!from || !to) return 0;
  const a = Date.parse(from);
  const b = Date.parse(to);
  if (Number.isNaN(a) || Number.isNaN(b)) return 0;
  return Math.max(0, Math.floor((b - a) / 1000));
}

/** 'dd.mm.yyyy hh:mm' in the browser's time zone; the raw text when it is not a date. */
export function formatDateTime(value: string): string {
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return value;
  return `${pad(date.getDate())}.${pad(date.getMonth() + 1)}.${date.getFullYear()} ${pad(date.getHours())}:${pad(date.getMinutes())}`;
}
