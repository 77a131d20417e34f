import type { Writable } from 'node:stream';
import ExcelJS from 'exceljs';
import type { ExportFormat } from '@lms/contract';

/**
 * How a column's values are written. Spreadsheet dates carry no time zone: a `date` or `datetime`
 * value is a Date whose UTC fields are the wall-clock time to show (see `wallClock`).
 */
export type ColumnKind = 'text' | 'date' | 'datetime' | 'percent';

export interface Column<R> {
  header: string;
  kind: ColumnKind;
  /** Width in characters (xlsx). */
  width: number;
  /** text: a string; date/datetime: a Date; percent: a fraction (0.42 is 42 %); null for an empty cell. */
  value: (row: R) => string | Date | number | null;
}

export interface Sheet<R> {
  /** The worksheet's name (at most 31 characters, Excel's limit). */
  name: string;
  columns: readonly Column<R>[];
  /** Rows in batches, so that a large export is read and written a batch at a time. */
  rows: AsyncIterable<readonly R[]> | Iterable<readonly R[]>;
}

export const CONTENT_TYPE: Record<ExportFormat, string> = {
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  csv: 'text/csv; charset=utf-8',
};

const NUM_FMT: Record<Exclude<ColumnKind, 'text'>, string> = {
  date: 'dd.mm.yyyy',
  datetime: 'dd.mm.yyyy hh:mm',
  percent: '0%',
};

/** Writes the sheet to `out` in the format and ends it. */
export function writeSheet<R>(format: ExportFormat, sheet: Sheet<R>, out: Writable): Promise<void> {
  return format === 'xlsx' ? writeXlsx(sheet, out) : writeCsv(sheet, out);
}

/**
 * xlsx through exceljs' streaming writer: each row is committed (serialized into the zip) as soon
 * as it is added, so memory holds a batch, not the sheet. Dates are date cells and progress is a
 * number with a percent format, so that Excel sorts and sums them.
 */
export async function writeXlsx<R>(sheet: Sheet<R>, out: Writable): Promise<void> {
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true, useSharedStrings: false });
  const worksheet = workbook.addWorksheet(sheet.name.slice(0, 31), { views: [{ state: 'frozen', ySplit: 1 }] });
  worksheet.columns = sheet.columns.map((c) => ({ width: c.width }));
  const header = worksheet.addRow(sheet.columns.map((c) => c.header));
  header.font = { bold: true };
  header.commit();
  for await (const batch of sheet.rows) {
    if (out.destroyed) throw new Error(GONE);
    for (const row of batch) {
      const added = worksheet.addRow(sheet.columns.map((c) => c.value(row)));
      sheet.columns.forEach((c, i) => {
        if (c.kind !== 'text') added.getCell(i + 1).numFmt = NUM_FMT[c.kind];
      });
      added.commit();
    }
  }
  worksheet.commit();
  await workbook.commit();
}

/**
 * CSV for Excel as Russian users open it: UTF-8 with a byte order mark (without it Excel reads the
 * file as Windows-1251 and Cyrillic turns to mojibake) and `;` between fields, because in the
 * Russian locale the comma is the decimal separator and Excel's list separator is `;` — a
 * comma-separated file opens as one column. Lines end with CRLF (RFC 4180). Dates are written as
 * dd.mm.yyyy [hh:mm] and progress as '42%', which Russian Excel reads back as a date and a percent.
 */
export async function writeCsv<R>(sheet: Sheet<R>, out: Writable): Promise<void> {
  const write = async (text: string) => {
    if (out.destroyed) throw new Error(GONE);
    if (!out.write(text)) await drained(out);
  };
  await write('\uFEFF' + csvLine(sheet.columns.map((c) => csvText(c.header))));
  for await (const batch of sheet.rows) {
    let chunk = '';
    for (const row of batch) chunk += csvLine(sheet.columns.map((c) => csvCell(c.kind, c.value(row))));
    await write(chunk);
  }
  out.end();
}

/** The message when the download went away before the file was written (nothing to answer then). */
const GONE = 'export stream closed';

/** Until `out` can take more, or is closed (a client that goes away never drains it). */
function drained(out: Writable): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      out.off('drain', done);
      out.off('close', done);
      resolve();
    };
    out.on('drain', done);
    out.on('close', done);
  });
}

const csvLine = (cells: string[]) => cells.join(';') + '\r\n';

function csvCell(kind: ColumnKind, value: string | Date | number | null): string {
  if (value === null) return '';
  if (value instanceof Date) return kind === 'datetime' ? `${ddmmyyyy(value)} ${hhmm(value)}` : ddmmyyyy(value);
  if (typeof value === 'number') return kind === 'percent' ? `${Math.round(value * 100)}%` : String(value);
  return csvText(value);
}

/**
 * A text field: a leading = + - @ (or tab/CR) would make Excel run it as a formula (CSV injection),
 * so such a text gets a leading apostrophe; a field with `;`, a quote or a line break is quoted.
 */
export function csvText(text: string): string {
  const safe = /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
  return /[";\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

const two = (n: number) => String(n).padStart(2, '0');
const ddmmyyyy = (d: Date) => `${two(d.getUTCDate())}.${two(d.getUTCMonth() + 1)}.${d.getUTCFullYear()}`;
const hhmm = (d: Date) => `${two(d.getUTCHours())}:${two(d.getUTCMinutes())}`;

/** Times of day for a zone's reader: the one owner of dates for people (platform/peopleTime.ts). */
export { wallClock } from '../../platform/peopleTime.js';

/**
 * Content-Disposition for a download: an ASCII `filename` for old clients and the real name as
 * `filename*` (RFC 6266, RFC 5987).
 */
export function attachment(asciiName: string, name: string): string {
  const encoded = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${asciiName}"; filename*=UTF-8''${encoded}`;
}
