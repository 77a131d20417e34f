import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { makeZip } from '../test/zipFiles.js';
import { inspectZip, safeEntryName, ZipRefused } from './zip.js';

const LIMITS = { entries: 10, unpackedBytes: 1024 * 1024 };

function refusal(zip: Buffer, limits = LIMITS): string {
  try {
    inspectZip(zip, limits);
  } catch (error) {
    if (error instanceof ZipRefused) return error.problem;
    throw error;
  }
  return 'accepted';
}

describe('reading a ZIP archive without trusting it', () => {
  it('lists the entries of a real .xlsx with their unpacked sizes', async () => {
    const workbook = new ExcelJS.Workbook();
    workbook.addWorksheet('Лист').addRow(['Фамилия', 'Имя']);
    const xlsx = Buffer.from(await workbook.xlsx.writeBuffer());
    const entries = inspectZip(xlsx, { entries: 100, unpackedBytes: 10 * 1024 * 1024 });
    expect(entries.map((e) => e.name)).toContain('xl/workbook.xml');
    expect(entries.find((e) => e.name === 'xl/workbook.xml')?.size).toBeGreaterThan(100);
  });

  it('refuses an archive that unpacks beyond its budget, counting what inflates, not what headers claim', () => {
    const bomb = makeZip([{ name: 'a.xml', data: Buffer.alloc(2 * 1024 * 1024) }]);
    expect(bomb.length).toBeLessThan(10_000);
    expect(refusal(bomb)).toBe('too-large');
    // The budget is shared by all entries.
    const half = Buffer.alloc(600 * 1024);
    expect(refusal(makeZip([{ name: 'a', data: half }]))).toBe('accepted');
    expect(
      refusal(
        makeZip([
          { name: 'a', data: half },
          { name: 'b', data: half },
        ]),
      ),
    ).toBe('too-large');
    // A stored entry counts its bytes as they are.
    expect(refusal(makeZip([{ name: 'a', data: Buffer.alloc(2 * 1024 * 1024), deflate: false }]))).toBe('too-large');
  });

  it('refuses a header that understates the size: the data is inflated under the budget regardless', () => {
    const zip = makeZip([{ name: 'a.xml', data: Buffer.alloc(2 * 1024 * 1024) }]);
    // Claim 10 bytes unpacked in both headers.
    zip.writeUInt32LE(10, 22);
    const central = zip.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
    zip.writeUInt32LE(10, central + 24);
    expect(refusal(zip)).toBe('too-large');
  });

  it('refuses too many entries, names outside the folder, encrypted entries and broken archives', () => {
    const many = Array.from({ length: 11 }, (_, i) => ({ name: `f${i}`, data: Buffer.from('x') }));
    expect(refusal(makeZip(many))).toBe('too-many-entries');
    for (const name of ['../evil.txt', 'a/../../evil', '/etc/passwd', 'C:/evil', 'a\\..\\b']) {
      expect(refusal(makeZip([{ name, data: Buffer.from('x') }])), name).toBe('unsafe-name');
    }
    expect(refusal(makeZip([{ name: 'a', data: Buffer.from('x'), flags: 1 }]))).toBe('encrypted');
    const zip = makeZip([{ name: 'a', data: Buffer.from('hello hello hello') }]);
    expect(refusal(zip.subarray(0, zip.length - 30))).toBe('corrupt');
    expect(refusal(Buffer.from('not a zip at all'))).toBe('not-zip');
    const garbled = Buffer.from(zip);
    garbled.fill(0xff, 30, 40);
    expect(refusal(garbled)).toBe('corrupt');
  });

  it('safe names stay inside their folder', () => {
    expect(safeEntryName('xl/worksheets/sheet1.xml')).toBe(true);
    expect(safeEntryName('a/..b/c')).toBe(true);
    expect(safeEntryName('a/../b')).toBe(false);
    expect(safeEntryName('')).toBe(false);
    expect(safeEntryName('a\0b')).toBe(false);
  });
});
