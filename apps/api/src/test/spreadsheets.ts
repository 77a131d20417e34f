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
