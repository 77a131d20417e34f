import type { Writable } from 'node:stream';
import ExcelJS from 'exceljs';
import type { ExportFormat } from '@lms/contract';

/**
 * How a column's values are written. Spreadsheet dates carry no time zone: a `date` or `datetime`
 * value is a Date whose UTC fields are the wall-clock time to show (see `wallClock`).
 */
export type ColumnKind = 'text' | 'date' | 'datetime' | 'percent';

/** text: a string; date/datetime: a Date; percent: a fraction (0.42 is 42 %); null for an empty cell. */
export type Cell = string | Date | number | null;

export interface ColumnHead {
  header: string;
  kind: ColumnKind;
  /** Width in characters (xlsx). */
  width: number;
}

export interface Column<R> extends ColumnHead {
  value: (row: R) => Cell;
}

export interface Sheet<R> {
  /** The worksheet's name (at most 31 characters, Excel's limit). */
  name: string;
  columns: readonly Column<R>[];
  /** Rows in batches, so that a large export is read and written a batch at a time. */
  rows: AsyncIterable<readonly R[]> | Iterable<readonly R[]>;
}

/** A sheet whose rows are already cells: what the writers take, so that one workbook holds sheets of different rows. */
export interface CellSheet {
  name: string;
  columns: readonly ColumnHead[];
  rows: AsyncIterable<readonly (readonly Cell[])[]>;
}

/** The sheet's rows as cells, a batch at a time as the writer asks for them (nothing is read before). */
export function cellSheet<R>(sheet: Sheet<R>): CellSheet {
  const columns = sheet.columns.map(({ header, kind, width }) => ({ header, kind, width }));
  async function* rows() {
    for await (const batch of sheet.rows) yield batch.map((row) => sheet.columns.map((c) => c.value(row)));
  }
  return { name: sheet.name, columns, rows: rows() };
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

/** Writes the sheets to `out` in the format and ends it; a CSV file holds exactly one. */
export function writeSheets(format: ExportFormat, sheets: readonly CellSheet[], out: Writable): Promise<void> {
  if (format === 'xlsx') return writeXlsx(sheets, out);
  const [only, ...more] = sheets;
  if (!only || more.length > 0) return Promise.reject(new Error('a CSV file holds one sheet'));
  return writeCsv(only, out);
}

/**
 * xlsx through exceljs' streaming writer: each row is committed (serialized into the zip) as soon
 * as it is added, so memory holds a batch, not the sheet; the sheets are written one after another.
 * Dates are date cells and progress is a number with a percent format, so that Excel sorts and sums them.
 */
export async function writeXlsx(sheets: readonly CellSheet[], out: Writable): Promise<void> {
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true, useSharedStrings: false });
  for (const sheet of sheets) {
    const worksheet = workbook.addWorksheet(sheet.name.slice(0, 31), { views: [{ state: 'frozen', ySplit: 1 }] });
    worksheet.columns = sheet.columns.map((c) => ({ width: c.width }));
    const header = worksheet.addRow(sheet.columns.map((c) => c.header));
    header.font = { bold: true };
    header.commit();
    for await (const batch of sheet.rows) {
      if (out.destroyed) throw new Error(GONE);
      for (const cells of batch) {
        const added = worksheet.addRow([...cells]);
        sheet.columns.forEach((c, i) => {
          if (c.kind !== 'text') added.getCell(i + 1).numFmt = NUM_FMT[c.kind];
        });
        added.commit();
      }
    }
    worksheet.commit();
  }
  await workbook.commit();
}

/**
 * CSV for Excel as Russian users open it: UTF-8 with a byte order mark (without it Excel reads the
 * file as Windows-1251 and Cyrillic turns to mojibake) and `;` between fields, because in the
 * Russian locale the comma is the decimal separator and Excel's list separator is `;` — a
 * comma-separated file opens as one column. Lines end with CRLF (RFC 4180). Dates are written as
 * dd.mm.yyyy [hh:mm] and progress as '42%', which Russian Excel reads back as a date and a percent.
 */
export async function writeCsv(sheet: CellSheet, out: Writable): Promise<void> {
  const write = async (text: string) => {
    if (out.destroyed) throw new Error(GONE);
    if (!out.write(text)) await drained(out);
  };
  await write('\uFEFF' + csvLine(sheet.columns.map((c) => csvText(c.header))));
  for await (const batch of sheet.rows) {
    let chunk = '';
    for (const cells of batch) chunk += csvLine(sheet.columns.map((c, i) => csvCell(c.kind, cells[i] ?? null)));
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

function csvCell(kind: ColumnKind, value: Cell): string {
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
