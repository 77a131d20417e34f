import { describe, expect, it } from 'vitest';
import { HttpError } from '../../platform/errors.js';
import { cp1251, xlsxOf } from '../../test/spreadsheets.js';
import { makeZip } from '../../test/zipFiles.js';
import { FILE_MESSAGES, readPeopleFile } from './file.js';

async function refusal(bytes: Buffer): Promise<string> {
  try {
    await readPeopleFile(bytes);
  } catch (error) {
    if (error instanceof HttpError && error.statusCode === 422) return error.message;
    throw error;
  }
  return 'read';
}

const HEADER = ['Фамилия', 'Имя', 'Email', 'Отдел', 'Должность', 'Роль'];

describe('reading a file of people', () => {
  it('reads an .xlsx made by a spreadsheet library: headers by name, in any order and case', async () => {
    const file = await readPeopleFile(
      await xlsxOf([
        ['EMAIL', 'отдел', 'Имя', 'Фамилия', 'Комментарий'],
        ['anna@example.com', 'Продажи', 'Анна', 'Смирнова', 'лишний столбец'],
        [],
        [{ text: 'boris@example.com', hyperlink: 'mailto:boris@example.com' }, 'Склад', ' Борис ', 'Орлов'],
      ]),
    );
    expect(file.columns).toEqual(['last_name', 'first_name', 'email', 'department']);
    expect(file.rows).toEqual([
      {
        line: 2,
        cells: { last_name: 'Смирнова', first_name: 'Анна', email: 'anna@example.com', department: 'Продажи' },
      },
      { line: 4, cells: { last_name: 'Орлов', first_name: 'Борис', email: 'boris@example.com', department: 'Склад' } },
    ]);
  });

  it('reads CSV in UTF-8 with a BOM and ";", and in Windows-1251 with ",", quoted values included', async () => {
    const utf8 = Buffer.from(
      '\uFEFFФамилия;Имя;Email;Отдел;Должность\r\nСмирнова;Анна;anna@example.com;"Продажи; опт";"Менеджер ""А"""\r\n',
    );
    expect((await readPeopleFile(utf8)).rows).toEqual([
      {
        line: 2,
        cells: {
          last_name: 'Смирнова',
          first_name: 'Анна',
          email: 'anna@example.com',
          department: 'Продажи; опт',
          position: 'Менеджер "А"',
        },
      },
    ]);
    const windows = cp1251('Фамилия,Имя,Email,Отдел\nЁжиков,Пётр,petr@example.com,Склад\n');
    expect((await readPeopleFile(windows)).rows).toEqual([
      { line: 2, cells: { last_name: 'Ёжиков', first_name: 'Пётр', email: 'petr@example.com', department: 'Склад' } },
    ]);
    // A line break inside quotes stays in the value; the next row keeps its own line number.
    const multiline = Buffer.from(
      'Фамилия;Имя;Email;Отдел\n"Орлов";"Бо\nрис";b@example.com;Склад\nА;Б;a@example.com;Склад\n',
    );
    expect((await readPeopleFile(multiline)).rows.map((r) => r.line)).toEqual([2, 4]);
  });

  it('refuses what is not such a table, saying why', async () => {
    expect(await refusal(Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0, 0]))).toBe(
      FILE_MESSAGES.oldOrProtected,
    );
    const png = Buffer.from('89504e470d0a1a0a0000000d4948445200000001', 'hex');
    expect(await refusal(png)).toBe(FILE_MESSAGES.notTable);
    expect(await refusal(makeZip([{ name: 'a.txt', data: Buffer.from('hello') }]))).toBe(FILE_MESSAGES.notTable);
    expect(await refusal(makeZip([{ name: '../../a.xml', data: Buffer.from('x') }]))).toBe(FILE_MESSAGES.corrupt);
    const xlsx = await xlsxOf([HEADER, ['А', 'Б', 'a@example.com', 'Склад']]);
    expect(await refusal(xlsx.subarray(0, xlsx.length - 100))).toBe(FILE_MESSAGES.corrupt);
    expect(await refusal(await xlsxOf([]))).toBe(FILE_MESSAGES.empty);
    expect(await refusal(Buffer.from(''))).toBe(FILE_MESSAGES.empty);
    expect(await refusal(await xlsxOf([HEADER]))).toBe(FILE_MESSAGES.noPeople);
    expect(await refusal(Buffer.from('Имя;Email\nАнна;a@example.com\n'))).toBe(
      FILE_MESSAGES.missingColumns(['Фамилия', 'Отдел']),
    );
    expect(await refusal(Buffer.from('Фамилия;Имя;Email;Отдел;Почта\n'))).toBe(FILE_MESSAGES.duplicateColumn('Email'));
  });

  it('refuses formulas and merged cells, naming where they are', async () => {
    const formula = await xlsxOf([HEADER, ['А', 'Б', 'a@example.com', 'Склад']], (sheet) => {
      sheet.getCell('B2').value = { formula: 'UPPER("б")', result: 'Б' };
    });
    expect(await refusal(formula)).toBe(FILE_MESSAGES.formula('B2'));
    const merged = await xlsxOf([HEADER, ['А', 'Б', 'a@example.com', 'Склад']], (sheet) => sheet.mergeCells('D2:E2'));
    expect(await refusal(merged)).toBe(FILE_MESSAGES.merged('D2:E2'));
    expect(await refusal(Buffer.from('Фамилия;Имя;Email;Отдел\nА;=1+1;a@example.com;Склад\n'))).toBe(
      FILE_MESSAGES.formula('в строке 2, столбце 2'),
    );
  });

  it('refuses more rows than an import takes', async () => {
    const lines = ['Фамилия;Имя;Email;Отдел', ...Array.from({ length: 50_001 }, (_, i) => `Ф;И;u${i}@example.com;О`)];
    expect(await refusal(Buffer.from(lines.join('\n')))).toBe(FILE_MESSAGES.tooManyRows);
  });
});
