import { z } from 'zod';
import { safeText } from './common.js';
import { ADMIN_USER_SORTS } from './settings.js';

/** Spreadsheet exports of the analytics screen and the employees tab (issue 16). */

export const EXPORT_FORMATS = ['xlsx', 'csv'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** An IANA time zone the runtime knows ('Europe/Moscow'). */
export function isTimeZone(value: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

const common = {
  /** xlsx (the default) or csv. */
  format: z.enum(EXPORT_FORMATS).default('xlsx'),
  /**
   * The viewer's time zone: spreadsheet times carry no zone, so times of day are written as the
   * viewer's wall clock (the browser sends its own; the company's TIMEZONE without it). Deadlines are
   * always the company's calendar days, as the analytics screen writes them.
   */
  tz: z.string().max(64).refine(isTimeZone, 'Неизвестный часовой пояс').optional(),
};

/**
 * The format and the viewer's zone, for an export's query defined next to its screen's filters
 * (the audit's, in audit.ts: audit.ts cannot be imported here, as peopleImport.ts imports this file).
 */
export const exportOptions = common;

/**
 * GET /api/analytics/export and GET /api/analytics/export/courses (one row per employee and course):
 * the screen's filters, the status toggle and the search on the name.
 */
export const analyticsExportQuery = z.object({
  ...common,
  status: z.enum(['overdue', 'almost_overdue', 'in_order']).optional(),
  search: safeText(100).optional(),
});
export type AnalyticsExportQuery = z.infer<typeof analyticsExportQuery>;

/** GET /api/admin/users/export: the employees tab's search and sort, every page of it. */
export const adminUsersExportQuery = z.object({
  ...common,
  search: safeText(100).optional(),
  sort: z.enum(ADMIN_USER_SORTS).optional(),
  direction: z.enum(['asc', 'desc']).optional(),
});
export type AdminUsersExportQuery = z.infer<typeof adminUsersExportQuery>;
