import ExcelJS from 'exceljs';

/** Reading export files back in tests: xlsx through exceljs (as Excel opens it), CSV as Russian Excel splits it. */

export interface ReadCell {
  value: unknown;
  type: number;
  numFmt: string | undefined;
}

export interface ReadSheet {
  name: string;
  rows: ReadCell[][];
}

/** Every worksheet of an xlsx file, in order: its name and each row's cells (empty rows left out). */
export async function readWorkbook(body: Buffer): Promise<ReadSheet[]> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(body as unknown as ArrayBuffer);
  return workbook.worksheets.map((sheet) => {
    const rows: ReadCell[][] = [];
    sheet.eachRow({ includeEmpty: false }, (row) => {
      const cells: ReadCell[] = [];
      for (let i = 1; i <= sheet.columnCount; i++) {
        const cell = row.getCell(i);
        cells.push({ value: cell.value, type: cell.type, numFmt: cell.numFmt || undefined });
      }
      rows.push(cells);
    });
    return { name: sheet.name, rows };
  });
}

/** The first worksheet of an xlsx file. */
export async function readXlsx(body: Buffer): Promise<ReadSheet> {
  const sheet = (await readWorkbook(body))[0];
  if (!sheet) throw new Error('no worksheet');
  return sheet;
}

export const values = (rows: ReadCell[][]) => rows.map((r) => r.map((c) => c.value));

/** A `;`-separated CSV with quoted fields and CRLF lines (what writeCsv writes) as rows of fields. */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i] as string;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ';') {
      row.push(field);
      field = '';
    } else if (ch === '\r' && text[i + 1] === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      i++;
    } else field += ch;
  }
  if (field !== '' || row.length > 0) rows.push([...row, field]);
  return rows;
}

/** Windows-1251, as a Russian Excel saves "CSV": Cyrillic letters one byte each. */
export function cp1251(text: string): Buffer {
  return Buffer.from(
    [...text].map((ch) => {
      const code = ch.codePointAt(0) ?? 0;
      if (code < 0x80) return code;
      if (code >= 0x410 && code <= 0x44f) return code - 0x410 + 0xc0;
      if (ch === 'Ё') return 0xa8;
      if (ch === 'ё') return 0xb8;
      throw new Error(`not in the test's cp1251: ${ch}`);
    }),
  );
}

export async function xlsxOf(rows: unknown[][], build?: (sheet: ExcelJS.Worksheet) => void): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Сотрудники');
  for (const row of rows) sheet.addRow(row);
  build?.(sheet);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}
