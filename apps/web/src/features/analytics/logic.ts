import { initials, type AnalyticsEmployee, type AuthUser, type EmployeeCourseDetail } from '@lms/contract';
import { formatRelativeTime } from '../../lib/relativeTime';
import { normalizeQuery, textMatches } from '../../lib/search';
import { T } from './texts';

/** The three deadline groups of the overview, in the order they are shown (docs/product.md §Analytics). */
export type GroupKey = 'overdue' | 'almost_overdue' | 'in_order';
/** No filter, or one group. */
export type Filter = GroupKey | null;

export type Analytic = Record<GroupKey, AnalyticsEmployee[]>;

/**
 * Text shades of the status colours that keep 4.5:1 contrast on white and on their light backgrounds,
 * and as the background of white text (an active status toggle: the theme's orange gives 3.6:1).
 */
export const TEXT_COLOR = { red: '#c92a2a', orange: '#b33c00', green: '#237032', gray: 'inherit' } as const;
export type StatusColor = keyof typeof TEXT_COLOR;

export interface GroupInfo {
  key: GroupKey;
  /** The toggle button's text. */
  filter: string;
  /** The section title of the grid. */
  title: string;
  /** Mantine colour of the group (its deadlines are written in TEXT_COLOR[color]). */
  color: StatusColor;
}

export const GROUPS: readonly GroupInfo[] = [
  { key: 'overdue', filter: T.filterOverdue, title: T.groupOverdue, color: 'red' },
  { key: 'almost_overdue', filter: T.filterAlmost, title: T.groupAlmost, color: 'orange' },
  { key: 'in_order', filter: T.filterInOrder, title: T.groupInOrder, color: 'green' },
];

export interface ShownGroup extends GroupInfo {
  items: AnalyticsEmployee[];
}

/** Single-select toggles: clicking the active filter clears it, another one replaces it. */
export function toggleFilter(current: Filter, clicked: GroupKey): Filter {
  return current === clicked ? null : clicked;
}

/** An employee matches when the query is a case-insensitive substring of the name ('' matches all). */
export function matchesEmployee(query: string, employee: Pick<AnalyticsEmployee, 'name'>): boolean {
  return textMatches(normalizeQuery(query), employee.name);
}

/**
 * The groups on screen: all three without a filter, else the chosen one; each filtered by the
 * search on the name; empty groups are dropped.
 */
export function shownGroups(analytic: Analytic, filter: Filter, query: string): ShownGroup[] {
  return GROUPS.filter((g) => filter === null || g.key === filter)
    .map((g) => ({ ...g, items: analytic[g.key].filter((e) => matchesEmployee(query, e)) }))
    .filter((g) => g.items.length > 0);
}

/** Everyone in the viewer's team, whatever is shown. */
export function teamSize(analytic: Analytic | undefined): number {
  return analytic ? analytic.overdue.length + analytic.almost_overdue.length + analytic.in_order.length : 0;
}

/** 'Мои сотрудники' count: every employee shown across the groups. */
export function shownCount(groups: readonly ShownGroup[]): number {
  return groups.reduce((n, g) => n + g.items.length, 0);
}

/** A progress ring's value, clamped to 0–100 (docs/product.md §Analytics); anything not a number is 0. */
export function clampPercent(value: number | null | undefined): number {
  if (typeof value !== 'number' || Number.isNaN(value)) return 0;
  return Math.min(100, Math.max(0, value));
}

/** Last activity as relative time (docs/product.md §Analytics): 'Только что', 'N мин. назад', …, 'Никогда', 'Неверная дата'. */
export function lastActivityText(value: string | null | undefined, now: Date = new Date()): string {
  return formatRelativeTime(value, now);
}

/** The avatar's initials (docs/product.md §Analytics), by the one rule of every screen (contract `initials`). */
export function employeeInitials(e: { first_name: string; last_name: string; name: string }): string {
  return initials(e, e.name);
}

const dateFormats = new Map<string, Intl.DateTimeFormat>();
const dateFormatIn = (timeZone: string | undefined): Intl.DateTimeFormat => {
  const key = timeZone ?? '';
  let format = dateFormats.get(key);
  if (!format) {
    const zone = timeZone ? { timeZone } : {};
    format = new Intl.DateTimeFormat('ru-RU', { day: '2-digit', month: '2-digit', year: 'numeric', ...zone });
    dateFormats.set(key, format);
  }
  return format;
};

/**
 * An ISO time as dd.mm.yyyy (ru-RU): the calendar day of the company's time zone (GET /api/config's
 * `time_zone`), the day the server writes on the analytics card, so the two never disagree; the
 * browser's own zone until the config is known. '' for none or an unparseable value.
 */
export function formatDate(value: string | null | undefined, timeZone?: string): string {
  if (!value) return '';
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? '' : dateFormatIn(timeZone).format(date);
}

/**
 * The dates line of the course detail (docs/product.md §Analytics): 'Начат: …', then ' | Завершен: …' when
 * completed, else ' | Срок до: …' when there is a deadline. A course not started yet shows only
 * its deadline.
 */
export function courseDatesText(
  course: Pick<EmployeeCourseDetail, 'started_at' | 'completed_at' | 'deadline'>,
  timeZone?: string,
): string {
  const parts: string[] = [];
  const started = formatDate(course.started_at, timeZone);
  const completed = formatDate(course.completed_at, timeZone);
  const deadline = formatDate(course.deadline, timeZone);
  if (started) parts.push(`${T.started}${started}`);
  if (completed) parts.push(`${T.completed}${completed}`);
  else if (deadline) parts.push(`${T.due}${deadline}`);
  return parts.join(' | ');
}

/** True when a module's items are all done (it gets a check mark). */
export function moduleDone(module: { items_completed: number; items_total: number }): boolean {
  return module.items_total > 0 && module.items_completed >= module.items_total;
}

export type ItemStatus = 'completed' | 'failed' | 'in_progress' | 'not_started';

/** How an item's status looks: completed success + check, failed error + cross, others neutral. */
export function itemTone(status: ItemStatus): { color: StatusColor; icon: 'check' | 'cross' | 'none'; label: string } {
  switch (status) {
    case 'completed':
      return { color: 'green', icon: 'check', label: T.statusCompleted };
    case 'failed':
      return { color: 'red', icon: 'cross', label: T.statusFailed };
    case 'in_progress':
      return { color: 'gray', icon: 'none', label: T.statusInProgress };
    default:
      return { color: 'gray', icon: 'none', label: T.statusNotStarted };
  }
}

/** The analytics screen is for users with the 'analytics.view' permission (managers and admins). */
export function canViewAnalytics(user: Pick<AuthUser, 'permissions'> | undefined): boolean {
  return user?.permissions.includes('analytics.view') ?? false;
}

/** 'Тест:', 'Урок:' or 'SCORM-пакет:' before an item's name. */
export function itemKindLabel(item: { type: 'lesson' | 'test'; kind?: 'lesson' | 'scorm' }): string {
  if (item.type === 'test') return T.test;
  return item.kind === 'scorm' ? T.scorm : T.lesson;
}
