import {
  PEOPLE_IMPORT_MAX_ROWS,
  PERSON_FIELD_HEADERS,
  PERSON_FIELD_LABELS,
  PERSON_FIELDS,
  REQUIRED_PERSON_FIELDS,
  type PersonField,
} from '@lms/contract';
import ExcelJS from 'exceljs';
import { inspectZip, looksLikeZip, ZipRefused } from '../../lib/zip.js';
import { unprocessable } from '../../platform/errors.js';

/**
 * A spreadsheet of people read into rows (issue 32): .xlsx, or .csv in UTF-8 or Windows-1251 with ';'
 * or ',' between values. The first non-empty row is the header; columns are found by their names
 * (PERSON_FIELD_HEADERS), in any order and case. What cannot be read as such a table is refused as a
 * whole with a Russian message: nothing of a file half understood is imported.
 */

/** A row as the file has it: the cells of the known columns, trimmed ('' when empty). */
export interface FileRow {
  /** The row's number as a spreadsheet shows it (the header is usually 1). */
  line: number;
  cells: Partial<Record<PersonField, string>>;
}

export interface PeopleFile {
  /** The fields the file has a column for: a missing optional column leaves that field unchanged. */
  columns: PersonField[];
  rows: FileRow[];
}

export const FILE_MESSAGES = {
  notTable: 'Не удалось прочитать файл: загрузите таблицу в формате .xlsx или .csv',
  oldOrProtected:
    'Файл защищён паролем или сохранён в старом формате Excel (.xls). Сохраните его как .xlsx без пароля или как .csv',
  corrupt: 'Файл повреждён: откройте его в Excel и сохраните заново',
  tooLargeUnpacked: 'Таблица слишком велика: разделите её на несколько файлов',
  empty: 'В файле нет данных: заполните первый лист таблицы',
  noPeople: 'В таблице есть заголовок, но нет ни одного сотрудника',
  tooManyRows: `В файле больше ${PEOPLE_IMPORT_MAX_ROWS.toLocaleString('ru-RU')} строк: разделите его на несколько файлов`,
  missingColumns: (names: string[]) =>
    `В таблице нет ${names.length === 1 ? 'столбца' : 'столбцов'} ${names.map((n) => `«${n}»`).join(', ')}. Скачайте шаблон, чтобы увидеть, какие столбцы нужны`,
  duplicateColumn: (name: string) => `Столбец «${name}» встречается в таблице дважды`,
  formula: (where: string) =>
    `Ячейка ${where} содержит формулу. Замените формулы значениями (Копировать → Специальная вставка → Значения) и загрузите файл снова`,
  merged: (range: string) => `В таблице есть объединённые ячейки (${range}). Разъедините их и загрузите файл снова`,
} as const;

// A sheet's XML may unpack to many times the file's 20 MB; a real 50 000-row sheet stays far below this.
const ZIP_LIMITS = { entries: 2000, unpackedBytes: 300 * 1024 * 1024 };
/** An OLE compound file: an encrypted (password-protected) .xlsx or an old .xls. */
const OLE_MAGIC = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);

const HEADER_OF = new Map<string, PersonField>(
  PERSON_FIELDS.flatMap((field) => PERSON_FIELD_HEADERS[field].map((h) => [h, field] as const)),
);
const normalHeader = (text: string) => text.trim().toLowerCase().replace(/\s+/g, ' ').replace(/\*$/, '').trim();

/** The people of a file's bytes; throws the API's 422 with the reason when it is not such a table. */
export async function readPeopleFile(bytes: Buffer): Promise<PeopleFile> {
  if (bytes.subarray(0, 8).equals(OLE_MAGIC)) throw unprocessable(FILE_MESSAGES.oldOrProtected);
  const table = looksLikeZip(bytes) ? await xlsxTable(bytes) : csvTable(bytes);
  return peopleOf(table);
}

/** A table's non-empty rows with their line numbers. */
interface Table {
  rows: { line: number; cells: string[] }[];
}

function peopleOf(table: Table): PeopleFile {
  const [header, ...body] = table.rows;
  if (!header) throw unprocessable(FILE_MESSAGES.empty);
  const at = new Map<PersonField, number>();
  header.cells.forEach((text, index) => {
    const field = HEADER_OF.get(normalHeader(text));
    if (!field) return;
    if (at.has(field)) throw unprocessable(FILE_MESSAGES.duplicateColumn(PERSON_FIELD_LABELS[field]));
    at.set(field, index);
  });
  const missing = REQUIRED_PERSON_FIELDS.filter((f) => !at.has(f)).map((f) => PERSON_FIELD_LABELS[f]);
  if (missing.length > 0) throw unprocessable(FILE_MESSAGES.missingColumns(missing));
  if (body.length === 0) throw unprocessable(FILE_MESSAGES.noPeople);
  if (body.length > PEOPLE_IMPORT_MAX_ROWS) throw unprocessable(FILE_MESSAGES.tooManyRows);
  const columns = PERSON_FIELDS.filter((f) => at.has(f));
  const rows = body.map(({ line, cells }) => ({
    line,
    cells: Object.fromEntries(columns.map((f) => [f, (cells[at.get(f) ?? -1] ?? '').trim()])),
  }));
  return { columns, rows };
}

async function xlsxTable(bytes: Buffer): Promise<Table> {
  let entries: { name: string }[];
  try {
    entries = inspectZip(bytes, ZIP_LIMITS);
  } catch (error) {
    if (!(error instanceof ZipRefused)) throw error;
    if (error.problem === 'too-large' || error.problem === 'too-many-entries') {
      throw unprocessable(FILE_MESSAGES.tooLargeUnpacked);
    }
    throw unprocessable(error.problem === 'encrypted' ? FILE_MESSAGES.oldOrProtected : FILE_MESSAGES.corrupt);
  }
  // Another kind of archive (a .docx, a .zip of anything): not a spreadsheet.
  if (!entries.some((e) => e.name === 'xl/workbook.xml')) throw unprocessable(FILE_MESSAGES.notTable);
  const workbook = new ExcelJS.Workbook();
  try {
    await workbook.xlsx.load(bytes as unknown as ArrayBuffer);
  } catch {
    throw unprocessable(FILE_MESSAGES.corrupt);
  }
  const sheet = workbook.worksheets[0];
  if (!sheet) throw unprocessable(FILE_MESSAGES.empty);
  const merged = sheet.model.merges[0];
  if (merged) throw unprocessable(FILE_MESSAGES.merged(merged));
  const rows: Table['rows'] = [];
  sheet.eachRow({ includeEmpty: false }, (row, line) => {
    const cells: string[] = [];
    row.eachCell({ includeEmpty: true }, (cell, column) => {
      if (cell.type === ExcelJS.ValueType.Formula) throw unprocessable(FILE_MESSAGES.formula(cell.address));
      cells[column - 1] = cellText(cell);
    });
    if (cells.some((c) => c !== undefined && c.trim() !== ''))
      rows.push({ line, cells: [...cells].map((c) => c ?? '') });
  });
  return { rows };
}

/** What a cell shows, as text: numbers as written, dates as day.month.year, rich text joined. */
function cellText(cell: ExcelJS.Cell): string {
  const value = cell.value;
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (value instanceof Date) return value.toISOString().slice(0, 10);
  if (typeof value === 'object' && 'richText' in value) return value.richText.map((r) => r.text).join('');
  // A hyperlink (an e-mail address typed into Excel becomes one): its text.
  if (typeof value === 'object' && 'text' in value && typeof value.text === 'string') return value.text;
  return cell.text;
}

function decodeText(bytes: Buffer): string {
  if (bytes.subarray(0, 3).equals(Buffer.from([0xef, 0xbb, 0xbf]))) return bytes.subarray(3).toString('utf8');
  // A binary file is not a table (a NUL never appears in text).
  if (bytes.includes(0)) throw unprocessable(FILE_MESSAGES.notTable);
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    // Not UTF-8: Excel's "CSV" in a Russian Windows writes Windows-1251.
    return new TextDecoder('windows-1251').decode(bytes);
  }
}

/** The separator of a CSV file: the one of ';', ',' or tab its header line has most of. */
function separatorOf(firstLine: string): string {
  const counts = [';', ',', '\t'].map((s) => [s, firstLine.split(s).length - 1] as const);
  return counts.reduce((best, c) => (c[1] > best[1] ? c : best))[0];
}

function csvTable(bytes: Buffer): Table {
  const text = decodeText(bytes);
  const firstLine = text.slice(0, text.search(/\r?\n|$/));
  const separator = separatorOf(firstLine);
  const rows: Table['rows'] = [];
  let cells: string[] = [];
  let cell = '';
  let quoted = false;
  let line = 1;
  let rowLine = 1;
  const endCell = () => {
    // A value starting with '=' is a formula to a spreadsheet that opens the file.
    if (cell.trimStart().startsWith('=')) {
      throw unprocessable(FILE_MESSAGES.formula(`в строке ${rowLine}, столбце ${cells.length + 1}`));
    }
    cells.push(cell);
    cell = '';
    quoted = false;
  };
  const endRow = () => {
    endCell();
    if (cells.some((c) => c.trim() !== '')) rows.push({ line: rowLine, cells });
    cells = [];
  };
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (ch === '"') {
        quoted = false;
        // Text after a closing quote belongs to the same cell, as spreadsheets read it.
      } else {
        if (ch === '\n') line++;
        cell += ch;
      }
    } else if (ch === '"' && cell.trim() === '') {
      cell = '';
      quoted = true;
    } else if (ch === separator) {
      endCell();
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && text[i + 1] === '\n') i++;
      endRow();
      line++;
      rowLine = line;
    } else {
      cell += ch;
    }
  }
  if (cell !== '' || cells.length > 0) endRow();
  if (rows.length > PEOPLE_IMPORT_MAX_ROWS + 1) throw unprocessable(FILE_MESSAGES.tooManyRows);
  return { rows };
}
