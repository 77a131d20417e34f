import type {
  AdminUserListItem,
  AdminUsersExportQuery,
  AnalyticsEmployee,
  AnalyticsExportQuery,
  ExportFormat,
} from '@lms/contract';
import type { Clock } from '../../platform/clock.js';
import type { PeopleTime } from '../../platform/peopleTime.js';
import type { SessionUser } from '../../platform/sessions.js';
import type { AnalyticsService } from '../analytics/service.js';
import type { UsersService } from '../users/service.js';
import { wallClock, type Sheet } from './writer.js';

export type DeadlineGroup = NonNullable<AnalyticsExportQuery['status']>;

/** The deadline groups in the order the screen shows them, with the export's status texts. */
export const STATUS_TEXT: Record<DeadlineGroup, string> = {
  overdue: 'Просрочено',
  almost_overdue: 'Почти просрочено',
  in_order: 'Все в порядке',
};
const GROUP_ORDER = Object.keys(STATUS_TEXT) as DeadlineGroup[];

export interface AnalyticsRow extends AnalyticsEmployee {
  status: DeadlineGroup;
}

export interface ExportFile<R> {
  format: ExportFormat;
  /** An ASCII name for old clients and the real one. */
  asciiName: string;
  name: string;
  sheet: Sheet<R>;
}

/**
 * The screen's name search, as the analytics screen filters (apps/web/src/lib/search.ts): the
 * query trimmed and lower-cased in the Russian locale, a substring of the name; '' matches all.
 */
export function nameMatches(query: string | undefined, name: string): boolean {
  const q = (query ?? '').trim().toLocaleLowerCase('ru-RU');
  return q === '' || name.toLocaleLowerCase('ru-RU').includes(q);
}

/** The rows of the analytics screen for its filters: the chosen group (or all three, in order), searched by name. */
export function shownRows(
  analytic: Record<DeadlineGroup, AnalyticsEmployee[]>,
  status: DeadlineGroup | undefined,
  search: string | undefined,
): AnalyticsRow[] {
  return GROUP_ORDER.filter((g) => status === undefined || g === status).flatMap((g) =>
    analytic[g].filter((e) => nameMatches(search, e.name)).map((e) => ({ ...e, status: g })),
  );
}

const at = (value: string | null) => (value ? new Date(value) : null);

/**
 * Spreadsheets of what the analytics screen and the employees tab show with their filters
 * (issue 16). The rows come from the screens' own services, so scope and order are theirs: a
 * manager's export holds only the employees their analytics shows.
 */
export class ExportsService {
  constructor(
    private readonly analyticsService: AnalyticsService,
    private readonly usersService: UsersService,
    private readonly clock: Clock,
    /** The company's time zone (TIMEZONE): deadlines' days, and times of day when the viewer sends no zone. */
    private readonly people: PeopleTime,
  ) {}

  /** `prefix-yyyy-mm-dd.ext`, the day as the viewer's calendar shows it. */
  private names(format: ExportFormat, ascii: string, russian: string, tz: string) {
    const day = wallClock(this.clock.now(), tz).toISOString().slice(0, 10);
    return { asciiName: `${ascii}-${day}.${format}`, name: `${russian}-${day}.${format}` };
  }

  async analytics(viewer: SessionUser, query: AnalyticsExportQuery): Promise<ExportFile<AnalyticsRow>> {
    const tz = query.tz ?? this.people.timeZone;
    const rows = shownRows(await this.analyticsService.overview(viewer), query.status, query.search);
    const activity = (r: AnalyticsRow) => {
      const date = at(r.last_activity);
      return date ? wallClock(date, tz) : null;
    };
    // The deadline as the screen writes it: the company's calendar day (AnalyticsService's displayDate).
    const deadline = (r: AnalyticsRow) => {
      const date = at(r.deadline_at);
      return date ? this.people.day(date) : null;
    };
    return {
      format: query.format,
      ...this.names(query.format, 'analytics', 'Аналитика', tz),
      sheet: {
        name: 'Аналитика',
        columns: [
          { header: 'Сотрудник', kind: 'text', width: 32, value: (r) => r.name },
          { header: 'Email', kind: 'text', width: 32, value: (r) => r.email },
          { header: 'Отдел', kind: 'text', width: 24, value: (r) => r.department ?? null },
          { header: 'Курс', kind: 'text', width: 36, value: (r) => r.course?.name ?? null },
          { header: 'Срок', kind: 'date', width: 12, value: deadline },
          { header: 'Статус', kind: 'text', width: 18, value: (r) => STATUS_TEXT[r.status] },
          { header: 'Прогресс', kind: 'percent', width: 11, value: (r) => r.percent / 100 },
          { header: 'Последняя активность', kind: 'datetime', width: 22, value: activity },
        ],
        rows: [rows],
      },
    };
  }

  employees(query: AdminUsersExportQuery): ExportFile<AdminUserListItem> {
    const tz = query.tz ?? this.people.timeZone;
    const activity = (u: AdminUserListItem) => {
      const date = at(u.last_activity);
      return date ? wallClock(date, tz) : null;
    };
    return {
      format: query.format,
      ...this.names(query.format, 'employees', 'Сотрудники', tz),
      sheet: {
        name: 'Сотрудники',
        columns: [
          { header: 'Сотрудник', kind: 'text', width: 32, value: (u) => u.name },
          { header: 'Должность', kind: 'text', width: 24, value: (u) => u.position ?? null },
          { header: 'Отдел', kind: 'text', width: 24, value: (u) => u.department?.name ?? null },
          { header: 'Роль', kind: 'text', width: 18, value: (u) => u.roles.name },
          { header: 'Email', kind: 'text', width: 32, value: (u) => u.email },
          { header: 'Последняя активность', kind: 'datetime', width: 22, value: activity },
        ],
        rows: this.usersService.listed(query),
      },
    };
  }
}
