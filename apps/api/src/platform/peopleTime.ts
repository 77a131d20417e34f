/**
 * The one owner of "a date for people" (docs/rules.md §Time): times are stored in UTC, and every date
 * the server writes for a person — in mails, digests, exports, the analytics screen's strings — is
 * the calendar day or wall-clock time of the company's time zone (`TIMEZONE`). Two places that format
 * the same instant through this class can never disagree by a day.
 */

const two = (n: number) => String(n).padStart(2, '0');

/** The fields of an instant's wall-clock time in a zone; `weekday` is ISO (1 = Monday … 7 = Sunday). */
export interface WallClock {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  weekday: number;
}

const WEEKDAY: Record<string, number> = { Mon: 1, Tue: 2, Wed: 3, Thu: 4, Fri: 5, Sat: 6, Sun: 7 };

/** Intl formatters are costly to build: one per zone, kept for the process. */
const formats = new Map<string, Intl.DateTimeFormat>();

function formatOf(timeZone: string): Intl.DateTimeFormat {
  let format = formats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      weekday: 'short',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formats.set(timeZone, format);
  }
  return format;
}

/** The wall-clock fields of `instant` in `timeZone`. */
export function wallClockOf(instant: Date, timeZone: string): WallClock {
  const out: WallClock = { year: 0, month: 0, day: 0, hour: 0, minute: 0, second: 0, weekday: 0 };
  for (const p of formatOf(timeZone).formatToParts(instant)) {
    if (p.type === 'weekday') out.weekday = WEEKDAY[p.value] ?? 0;
    else if (p.type === 'year' || p.type === 'month' || p.type === 'day') out[p.type] = Number(p.value);
    else if (p.type === 'hour' || p.type === 'minute' || p.type === 'second') out[p.type] = Number(p.value);
  }
  return out;
}

/**
 * The wall-clock time of an instant in a zone, as a Date whose UTC fields hold it: what a spreadsheet
 * cell (which has no zone) should show to a reader in that zone.
 */
export function wallClock(instant: Date, timeZone: string): Date {
  const w = wallClockOf(instant, timeZone);
  return new Date(Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second));
}

const DAYS_KEPT = 10_000;

const asInstant = (value: Date | string): Date => (typeof value === 'string' ? new Date(value) : value);

/** Dates and times for people in the company's time zone. */
export class PeopleTime {
  /**
   * Days already written, by stored time: a company-wide overview writes 10 000 deadlines, most of
   * them shared (a department's courses are assigned at once). Bounded, and emptied when full.
   */
  readonly #days = new Map<string, string>();

  constructor(readonly timeZone: string) {}

  /** dd.mm.yyyy: the calendar day of the instant in the company's zone. */
  date(value: Date | string): string {
    const key = typeof value === 'string' ? value : undefined;
    const kept = key === undefined ? undefined : this.#days.get(key);
    if (kept !== undefined) return kept;
    const w = wallClockOf(asInstant(value), this.timeZone);
    const text = `${two(w.day)}.${two(w.month)}.${w.year}`;
    if (key !== undefined) {
      if (this.#days.size >= DAYS_KEPT) this.#days.clear();
      this.#days.set(key, text);
    }
    return text;
  }

  /** dd.mm.yyyy hh:mm in the company's zone. */
  dateTime(value: Date | string): string {
    const w = wallClockOf(asInstant(value), this.timeZone);
    return `${two(w.day)}.${two(w.month)}.${w.year} ${two(w.hour)}:${two(w.minute)}`;
  }

  /** yyyy-mm-dd of the instant's calendar day in the company's zone (file names, keys). */
  dayKey(value: Date | string): string {
    const w = wallClockOf(asInstant(value), this.timeZone);
    return `${w.year}-${two(w.month)}-${two(w.day)}`;
  }

  /** The calendar day in the company's zone as midnight UTC: a date-only spreadsheet cell. */
  day(value: Date | string): Date {
    const w = wallClockOf(asInstant(value), this.timeZone);
    return new Date(Date.UTC(w.year, w.month - 1, w.day));
  }

  /** The wall-clock time in the company's zone, in a Date's UTC fields (a date-and-time cell). */
  wallClock(value: Date | string): Date {
    return wallClock(asInstant(value), this.timeZone);
  }

  /**
   * The calendar day (yyyy-mm-dd, company zone) of the latest weekly moment — `weekday` (ISO, 1 =
   * Monday) at `hour`:00 of the company's wall clock — at or before `now`. Counted on the wall clock,
   * so a change to or from summer time neither skips nor repeats a week; an hour that a change skips
   * (02:00 on a spring-forward night) is reached as soon as the clock passes it.
   */
  lastWeekly(now: Date, weekday: number, hour: number): string {
    const w = wallClockOf(now, this.timeZone);
    let back = (w.weekday - weekday + 7) % 7;
    if (back === 0 && w.hour < hour) back = 7;
    const day = new Date(Date.UTC(w.year, w.month - 1, w.day - back));
    return day.toISOString().slice(0, 10);
  }
}
