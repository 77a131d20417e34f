import {
  AUDIT_ACTION_LABELS,
  AUDIT_SOURCE_LABELS,
  auditActorText,
  auditChangeText,
  auditSubjectText,
  SCORM_STATUS_TEXT,
  CERTIFICATE_STATUS_TEXT,
  type CertificateItem,
  type CertificatesExportQuery,
  type AdminUserListItem,
  type AdminUsersExportQuery,
  type AnalyticsEmployee,
  type AnalyticsExportQuery,
  type AuditEntry,
  type AuditExportQuery,
  type ExportFormat,
} from '@lms/contract';
import type { Clock } from '../../platform/clock.js';
import type { PeopleTime } from '../../platform/peopleTime.js';
import type { SessionUser } from '../../platform/sessions.js';
import type { EmployeeCourse } from '../analytics/employeeCourses.js';
import type { PackageResultRow } from '../analytics/packageResults.js';
import type { AnalyticsService } from '../analytics/service.js';
import type { AuditService } from '../audit/service.js';
import type { CertificatesService } from '../certificates/service.js';
import type { UsersService } from '../users/service.js';
import { cellSheet, wallClock, type CellSheet, type Sheet } from './writer.js';

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

/** One employee's enrolled course, a row of the export per course. */
export interface AnalyticsCourseRow {
  employee: AnalyticsRow;
  course: EmployeeCourse;
}

export interface ExportFile {
  format: ExportFormat;
  /** An ASCII name for old clients and the real one. */
  asciiName: string;
  name: string;
  /** An xlsx file may hold several; a CSV file holds one. */
  sheets: readonly CellSheet[];
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

/** Seconds as hours, minutes and seconds ('1:05:09'), as the lesson timer writes time spent. */
const hms = (seconds: number) => {
  const two = (n: number) => String(n).padStart(2, '0');
  return `${Math.floor(seconds / 3600)}:${two(Math.floor((seconds % 3600) / 60))}:${two(seconds % 60)}`;
};

/** A stored time as the viewer's wall clock (spreadsheet times carry no zone); null stays empty. */
const viewerTime = (value: string | null, tz: string) => (value ? wallClock(new Date(value), tz) : null);
/** The calendar day of a wall-clock time (a date-only cell). */
const calendarDay = (wall: Date) => new Date(Date.UTC(wall.getUTCFullYear(), wall.getUTCMonth(), wall.getUTCDate()));

/**
 * Spreadsheets of what the analytics screen, the employees tab and the audit page show with their
 * filters (issues 16, 32). The rows come from the screens' own services, so scope and order are theirs: a
 * manager's export holds only the employees their analytics shows.
 */
export class ExportsService {
  constructor(
    private readonly analyticsService: AnalyticsService,
    private readonly usersService: UsersService,
    private readonly auditService: AuditService,
    private readonly clock: Clock,
    /** The company's time zone (TIMEZONE): deadlines' days, and times of day when the viewer sends no zone. */
    private readonly people: PeopleTime,
    private readonly certificateList: Pick<CertificatesService, 'batches' | 'item'>,
  ) {}

  /** The admin's certificates list with its filters, every page, newest first (docs/rules.md §Certificates). */
  certificates(query: CertificatesExportQuery): ExportFile {
    const tz = query.tz ?? this.people.timeZone;
    const { format, tz: _tz, ...filter } = query;
    const list = this.certificateList;
    async function* rows(): AsyncGenerator<CertificateItem[]> {
      for await (const batch of list.batches(filter)) yield batch.map((r) => list.item(r));
    }
    const day = (value: string | null) => (value ? this.people.day(value) : null);
    const sheet: Sheet<CertificateItem> = {
      name: 'Сертификаты',
      columns: [
        { header: 'Номер', kind: 'text', width: 18, value: (c) => c.number },
        { header: 'Сотрудник', kind: 'text', width: 32, value: (c) => c.learner_name },
        { header: 'Отдел', kind: 'text', width: 24, value: (c) => c.department },
        { header: 'Курс', kind: 'text', width: 36, value: (c) => c.course_title },
        { header: 'Дата завершения', kind: 'date', width: 16, value: (c) => day(c.completed_at) },
        { header: 'Действителен до', kind: 'date', width: 16, value: (c) => day(c.valid_until) },
        { header: 'Статус', kind: 'text', width: 20, value: (c) => CERTIFICATE_STATUS_TEXT[c.status] },
        { header: 'Причина отзыва', kind: 'text', width: 32, value: (c) => c.revoke_reason },
        { header: 'Выдан', kind: 'datetime', width: 20, value: (c) => viewerTime(c.issued_at, tz) },
      ],
      rows: rows(),
    };
    return { format, ...this.names(format, 'certificates', 'Сертификаты', tz), sheets: [cellSheet(sheet)] };
  }

  /** A deadline as the screen writes it: the company's calendar day (AnalyticsService's displayDate). */
  private readonly deadlineDay = (value: string | null): Date | null => (value ? this.people.day(value) : null);

  /** `prefix-yyyy-mm-dd.ext`, the day as the viewer's calendar shows it. */
  private names(format: ExportFormat, ascii: string, russian: string, tz: string) {
    const day = wallClock(this.clock.now(), tz).toISOString().slice(0, 10);
    return { asciiName: `${ascii}-${day}.${format}`, name: `${russian}-${day}.${format}` };
  }

  /**
   * The analytics screen with its filters: one row per employee; an xlsx file adds the sheet per
   * course (`analyticsCourses`) of the same people.
   */
  async analytics(viewer: SessionUser, query: AnalyticsExportQuery): Promise<ExportFile> {
    const tz = query.tz ?? this.people.timeZone;
    const rows = shownRows(await this.analyticsService.overview(viewer), query.status, query.search);
    const employees = cellSheet(employeesSheet(rows, tz, this.deadlineDay));
    return {
      format: query.format,
      ...this.names(query.format, 'analytics', 'Аналитика', tz),
      sheets: query.format === 'xlsx' ? [employees, cellSheet(this.coursesSheet(rows, tz))] : [employees],
    };
  }

  /**
   * The export per course: for the employees the screen shows with its filters, one row per enrolled
   * course (an employee without a course has none), read a batch of people at a time.
   */
  async analyticsCourses(viewer: SessionUser, query: AnalyticsExportQuery): Promise<ExportFile> {
    const tz = query.tz ?? this.people.timeZone;
    const rows = shownRows(await this.analyticsService.overview(viewer), query.status, query.search);
    return {
      format: query.format,
      ...this.names(query.format, 'analytics-courses', 'Аналитика-по-курсам', tz),
      sheets: [cellSheet(this.coursesSheet(rows, tz))],
    };
  }

  /**
   * SCORM results: for the employees the screen shows with its filters, one row per SCORM package of
   * each enrolled course, with their result in the current cycle (docs/rules.md §SCORM packages).
   */
  async analyticsPackages(viewer: SessionUser, query: AnalyticsExportQuery): Promise<ExportFile> {
    const tz = query.tz ?? this.people.timeZone;
    const employees = shownRows(await this.analyticsService.overview(viewer), query.status, query.search);
    const byId = new Map(employees.map((e) => [e.id, e]));
    const found = this.analyticsService.packageRows(employees.map((e) => e.id));
    async function* rows(): AsyncGenerator<(PackageResultRow & { employee: AnalyticsRow })[]> {
      for await (const batch of found)
        yield batch.flatMap((row) => {
          const employee = byId.get(row.course.user_id);
          return employee ? [{ ...row, employee }] : [];
        });
    }
    const sheet: Sheet<PackageResultRow & { employee: AnalyticsRow }> = {
      name: 'SCORM',
      columns: [
        { header: 'Сотрудник', kind: 'text', width: 32, value: (r) => r.employee.name },
        { header: 'Email', kind: 'text', width: 32, value: (r) => r.employee.email },
        { header: 'Отдел', kind: 'text', width: 24, value: (r) => r.employee.department ?? null },
        { header: 'Курс', kind: 'text', width: 36, value: (r) => r.course.title },
        { header: 'SCORM-пакет', kind: 'text', width: 36, value: (r) => r.item.name },
        { header: 'Статус', kind: 'text', width: 14, value: (r) => SCORM_STATUS_TEXT[r.status] },
        { header: 'Результат', kind: 'percent', width: 11, value: (r) => (r.score === null ? null : r.score / 100) },
        { header: 'Версия', kind: 'text', width: 8, value: (r) => (r.version === null ? null : String(r.version)) },
        {
          header: 'Время в пакете',
          kind: 'text',
          width: 14,
          value: (r) => (r.version === null ? null : hms(r.seconds)),
        },
        {
          header: 'Последнее действие',
          kind: 'datetime',
          width: 22,
          value: (r) => viewerTime(r.lastActivity, tz),
        },
      ],
      rows: rows(),
    };
    return {
      format: query.format,
      ...this.names(query.format, 'analytics-scorm', 'Аналитика-SCORM', tz),
      sheets: [cellSheet(sheet)],
    };
  }

  private coursesSheet(employees: readonly AnalyticsRow[], tz: string): Sheet<AnalyticsCourseRow> {
    const byId = new Map(employees.map((e) => [e.id, e]));
    const courses = this.analyticsService.enrolledCourses(employees.map((e) => e.id));
    async function* rows(): AsyncGenerator<AnalyticsCourseRow[]> {
      for await (const batch of courses)
        yield batch.flatMap((course) => {
          const employee = byId.get(course.user_id);
          return employee ? [{ employee, course }] : [];
        });
    }
    return {
      name: 'По курсам',
      columns: [
        { header: 'Сотрудник', kind: 'text', width: 32, value: (r) => r.employee.name },
        { header: 'Email', kind: 'text', width: 32, value: (r) => r.employee.email },
        { header: 'Отдел', kind: 'text', width: 24, value: (r) => r.employee.department ?? null },
        { header: 'Курс', kind: 'text', width: 36, value: (r) => r.course.title },
        { header: 'Срок', kind: 'date', width: 12, value: (r) => this.deadlineDay(r.course.summary.deadline) },
        {
          header: 'Статус',
          kind: 'text',
          width: 18,
          value: (r) => STATUS_TEXT[r.course.summary.deadline_status ?? 'in_order'],
        },
        { header: 'Прогресс', kind: 'percent', width: 11, value: (r) => r.course.summary.progress / 100 },
        {
          header: 'Дата завершения',
          kind: 'date',
          width: 16,
          value: (r) => {
            const done = viewerTime(r.course.summary.completed_at, tz);
            return done ? calendarDay(done) : null;
          },
        },
        {
          header: 'Последняя активность',
          kind: 'datetime',
          width: 22,
          value: (r) => viewerTime(r.employee.last_activity, tz),
        },
      ],
      rows: rows(),
    };
  }

  employees(query: AdminUsersExportQuery): ExportFile {
    const tz = query.tz ?? this.people.timeZone;
    const activity = (u: AdminUserListItem) => viewerTime(u.last_activity, tz);
    const sheet: Sheet<AdminUserListItem> = {
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
    };
    return {
      format: query.format,
      ...this.names(query.format, 'employees', 'Сотрудники', tz),
      sheets: [cellSheet(sheet)],
    };
  }

  /** The audit page ('Журнал изменений') with its filters, every page, newest first. */
  audit(query: AuditExportQuery): ExportFile {
    const tz = query.tz ?? this.people.timeZone;
    const sheet: Sheet<AuditEntry> = {
      name: 'Журнал изменений',
      columns: [
        { header: 'Время', kind: 'datetime', width: 18, value: (e) => viewerTime(e.at, tz) },
        { header: 'Кто', kind: 'text', width: 28, value: auditActorText },
        { header: 'Источник', kind: 'text', width: 24, value: (e) => AUDIT_SOURCE_LABELS[e.source] },
        { header: 'Действие', kind: 'text', width: 20, value: (e) => AUDIT_ACTION_LABELS[e.action] },
        { header: 'Кого касается', kind: 'text', width: 32, value: auditSubjectText },
        { header: 'Курс', kind: 'text', width: 32, value: (e) => e.course },
        {
          header: 'Изменения',
          kind: 'text',
          width: 60,
          // one cell, so that a row stays a row when sorted or filtered in Excel
          value: (e) => e.changes.map((c) => auditChangeText(c, e.action)).join('; ') || null,
        },
      ],
      rows: this.auditService.listed({ source: query.source, action: query.action, search: query.search }),
    };
    return {
      format: query.format,
      ...this.names(query.format, 'audit', 'Журнал-изменений', tz),
      sheets: [cellSheet(sheet)],
    };
  }
}

/** The screen's one row per employee (the first sheet of the analytics export). */
function employeesSheet(
  rows: readonly AnalyticsRow[],
  tz: string,
  deadlineDay: (value: string | null) => Date | null,
): Sheet<AnalyticsRow> {
  return {
    name: 'Аналитика',
    columns: [
      { header: 'Сотрудник', kind: 'text', width: 32, value: (r) => r.name },
      { header: 'Email', kind: 'text', width: 32, value: (r) => r.email },
      { header: 'Отдел', kind: 'text', width: 24, value: (r) => r.department ?? null },
      { header: 'Курс', kind: 'text', width: 36, value: (r) => r.course?.name ?? null },
      { header: 'Срок', kind: 'date', width: 12, value: (r) => deadlineDay(r.deadline_at) },
      { header: 'Статус', kind: 'text', width: 18, value: (r) => STATUS_TEXT[r.status] },
      { header: 'Прогресс', kind: 'percent', width: 11, value: (r) => r.percent / 100 },
      { header: 'Последняя активность', kind: 'datetime', width: 22, value: (r) => viewerTime(r.last_activity, tz) },
    ],
    rows: [rows],
  };
}
