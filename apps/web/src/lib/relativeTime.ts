const MINUTE = 60 * 1000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

export const TEXT_JUST_NOW = 'Только что';
export const TEXT_NEVER = 'Никогда';
export const TEXT_INVALID_DATE = 'Неверная дата';

const dateFormat = new Intl.DateTimeFormat('ru-RU', { day: '2-digit', month: '2-digit', year: 'numeric' });

/**
 * Last activity as relative time (docs/product.md §Analytics): under a minute 'Только что', then 'N мин. назад',
 * 'N ч. назад', under 7 days 'N дн. назад', otherwise dd.mm.yyyy (ru-RU). An empty value is
 * 'Никогда', an unparseable one 'Неверная дата'. A time slightly in the future (clock skew) counts
 * as 'Только что'.
 */
export function formatRelativeTime(value: string | number | Date | null | undefined, now: Date = new Date()): string {
  if (value === null || value === undefined || value === '') return TEXT_NEVER;
  const date = value instanceof Date ? value : new Date(value);
  const time = date.getTime();
  if (Number.isNaN(time)) return TEXT_INVALID_DATE;
  const diff = now.getTime() - time;
  if (diff < MINUTE) return TEXT_JUST_NOW;
  if (diff < HOUR) return `${Math.floor(diff / MINUTE)} мин. назад`;
  if (diff < DAY) return `${Math.floor(diff / HOUR)} ч. назад`;
  if (diff < 7 * DAY) return `${Math.floor(diff / DAY)} дн. назад`;
  return dateFormat.format(date);
}
