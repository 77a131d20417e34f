import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crc32, deflateSync } from 'node:zlib';
import jsqr from 'jsqr';
import { afterAll, describe, expect, it } from 'vitest';
import { renderCertificate, type CertificateContent } from './pdf.js';

/**
 * The PDF is read back with poppler, as a person's viewer would read it: the text as extracted
 * (Cyrillic included), the page count and size, the images and a raster of the page for the QR.
 */
const workDir = mkdtempSync(join(tmpdir(), 'lms-certificate-'));
afterAll(() => rmSync(workDir, { recursive: true, force: true }));

const sample: CertificateContent = {
  number: 'C-7K3M-9QXA-2F8D',
  learnerName: 'Иванова Мария Петровна',
  courseTitle: 'Охрана труда для руководителей и специалистов',
  title: 'Сертификат',
  completedOn: '28.11.2026',
  validUntil: '28.11.2027',
  signerName: 'Петров Алексей Николаевич',
  signerPosition: 'Директор по персоналу',
  companyName: 'Корпоративная академия',
  logo: null,
  verifyUrl: 'https://learn.company.ru/verify/C-7K3M-9QXA-2F8D',
};

const LONG_NAME = 'Константинопольская-Преображенская Александра-Виктория Владиславовна-Елизавета Максимилиановна';
/** Exactly 150 characters, the longest course title there is. */
const LONG_COURSE = (
  'Промышленная безопасность опасных производственных объектов, на которых используются подъёмные ' +
  'сооружения: требования, эксплуатация, надзор и контроль'
).padEnd(150, '!');

let fileCount = 0;
async function renderToFile(content: CertificateContent): Promise<{ path: string; size: number }> {
  const bytes = await renderCertificate(content);
  fileCount += 1;
  const path = join(workDir, `certificate-${fileCount}.pdf`);
  writeFileSync(path, bytes);
  return { path, size: bytes.length };
}

function poppler(tool: 'pdftotext' | 'pdfinfo' | 'pdfimages' | 'pdftoppm', args: string[]): Buffer {
  const run = spawnSync(tool, args, { maxBuffer: 64 * 1024 * 1024 });
  if (run.error !== undefined) {
    const missing = (run.error as NodeJS.ErrnoException).code === 'ENOENT';
    if (missing) {
      throw new Error(
        `${tool} is missing: the certificate tests need Debian's poppler-utils (apt-get install -y poppler-utils)`,
      );
    }
    throw run.error;
  }
  if (run.status !== 0) throw new Error(`${tool} ${args.join(' ')} failed: ${run.stderr.toString()}`);
  return run.stdout;
}

/** The page's text with every run of white space as one space, so that wrapped lines read as one. */
function pageText(path: string): string {
  return poppler('pdftotext', ['-enc', 'UTF-8', path, '-']).toString('utf8').replace(/\s+/gu, ' ');
}

interface WordBox {
  text: string;
  left: number;
  top: number;
  right: number;
  bottom: number;
}

/** Each word with its box in points, y pointing down from the top of the page (pdftotext -bbox). */
function wordBoxes(path: string): WordBox[] {
  const html = poppler('pdftotext', ['-bbox', '-enc', 'UTF-8', path, '-']).toString('utf8');
  const words = html.matchAll(
    /<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)<\/word>/gu,
  );
  return Array.from(words, ([, left, top, right, bottom, text]) => ({
    text: text ?? '',
    left: Number(left),
    top: Number(top),
    right: Number(right),
    bottom: Number(bottom),
  }));
}

type Box = Omit<WordBox, 'text'>;

/** More than a hairline shared in both directions: touching boxes do not count. */
const overlap = (a: Box, b: Box) =>
  Math.min(a.right, b.right) - Math.max(a.left, b.left) > 0.5 &&
  Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 0.5;

/** The page rendered in grey at 150 dpi (PGM, which needs no decoder to read). */
function rasterize(path: string): { width: number; height: number; grey: Buffer } {
  const pgm = poppler('pdftoppm', ['-r', '150', '-gray', '-singlefile', path]);
  const header = /^P5\s+(\d+)\s+(\d+)\s+255\s/u.exec(pgm.subarray(0, 40).toString('latin1'));
  if (header === null) throw new Error('pdftoppm did not write a PGM');
  const [head, width, height] = header;
  return { width: Number(width), height: Number(height), grey: pgm.subarray(head.length) };
}

const POINTS_PER_PIXEL = 72 / 150;
// jsqr is CommonJS with its function on `default`, which is where a NodeNext import finds it.
const decodeQr = jsqr.default;

/** Decodes the page's QR code; its text and its box in points (y down), or null when none is found. */
function readQrCode(path: string): { text: string; box: Box } | null {
  const { width, height, grey } = rasterize(path);
  const rgba = new Uint8ClampedArray(width * height * 4);
  grey.forEach((value, index) => {
    rgba.fill(value, index * 4, index * 4 + 3);
    rgba[index * 4 + 3] = 255;
  });
  const code = decodeQr(rgba, width, height);
  if (code === null) return null;
  const corners = [code.location.topLeftCorner, code.location.bottomRightCorner];
  const xs = corners.map((corner) => corner.x * POINTS_PER_PIXEL);
  const ys = corners.map((corner) => corner.y * POINTS_PER_PIXEL);
  return {
    text: code.data,
    box: { left: Math.min(...xs), top: Math.min(...ys), right: Math.max(...xs), bottom: Math.max(...ys) },
  };
}

/** A minimal valid RGB PNG, so that the test needs no image library. */
function tinyPng(width: number, height: number): Uint8Array {
  const rowLength = 1 + width * 3;
  const pixels = Buffer.alloc(rowLength * height);
  for (let row = 0; row < height; row += 1) {
    // Filter byte 0 (none) starts every row; then a blue that darkens downwards.
    for (let column = 0; column < width; column += 1)
      pixels.set([30, 60, 110 + row * 20], row * rowLength + 1 + column * 3);
  }
  const chunk = (type: string, data: Buffer) => {
    const typeAndData = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const checksum = Buffer.alloc(4);
    checksum.writeUInt32BE(crc32(typeAndData));
    return Buffer.concat([length, typeAndData, checksum]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8 bits per channel, RGB, deflate, no filter method, no interlace
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(pixels)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** The rows of `pdfimages -list` below its two header lines. */
function listImages(path: string): { width: number; height: number }[] {
  const rows = poppler('pdfimages', ['-list', path]).toString('utf8').trim().split('\n').slice(2);
  return rows.map((row) => {
    const [, , , width, height] = row.trim().split(/\s+/u);
    return { width: Number(width), height: Number(height) };
  });
}

describe('renderCertificate', () => {
  it('writes every fact of the certificate as real, extractable Russian text', async () => {
    const { path } = await renderToFile(sample);
    const text = pageText(path);
    for (const expected of [
      'Сертификат',
      'Настоящим подтверждается, что',
      'Иванова Мария Петровна',
      'успешно прошел(а) курс',
      '«Охрана труда для руководителей и специалистов»',
      'Дата завершения: 28.11.2026',
      'Действителен до: 28.11.2027',
      'Номер сертификата: C-7K3M-9QXA-2F8D',
      'Петров Алексей Николаевич',
      'Директор по персоналу',
      'Корпоративная академия',
      'Проверить подлинность: learn.company.ru/verify/C-7K3M-9QXA-2F8D',
    ]) {
      expect(text).toContain(expected);
    }
  });

  it('is one A4 landscape page, small, with its title and author set', async () => {
    const { path, size } = await renderToFile(sample);
    const info = poppler('pdfinfo', ['-enc', 'UTF-8', path]).toString('utf8');
    expect(info).toMatch(/^Pages:\s+1$/mu);
    expect(info).toMatch(/^Page size:\s+841\.89 x 595\.28 pts/mu);
    expect(info).toMatch(/^Title:\s+Сертификат № C-7K3M-9QXA-2F8D$/mu);
    expect(info).toMatch(/^Author:\s+Корпоративная академия$/mu);
    // The fonts are subset: whole DejaVu files would make it over 2 MB.
    expect(size).toBeLessThan(200 * 1024);
  });

  it('draws a QR code that decodes to the verification address', async () => {
    const { path } = await renderToFile(sample);
    expect(readQrCode(path)?.text).toBe(sample.verifyUrl);
  });

  it('fits a logo, a long title, name and position and a 150-character course title on one page without overlaps', async () => {
    expect(LONG_COURSE).toHaveLength(150);
    const { path } = await renderToFile({
      ...sample,
      logo: { bytes: tinyPng(40, 40), type: 'png' },
      title: 'Сертификат о повышении квалификации',
      learnerName: LONG_NAME,
      courseTitle: LONG_COURSE,
      signerPosition: 'Заместитель генерального директора по управлению персоналом и организационному развитию',
    });
    const info = poppler('pdfinfo', [path]).toString('utf8');
    expect(info).toMatch(/^Pages:\s+1$/mu);
    expect(info).toMatch(/^Page size:\s+841\.89 x 595\.28 pts/mu);

    const text = pageText(path);
    expect(text).toContain(LONG_NAME);
    expect(text).toContain(`«${LONG_COURSE}»`);
    expect(text).not.toContain('…');

    // Every word inside the inner frame (28 pt from the edges), none on another, none on the QR code.
    const qr = readQrCode(path);
    expect(qr?.text).toBe(sample.verifyUrl);
    const words = wordBoxes(path);
    for (const word of words) {
      expect(word.left).toBeGreaterThan(28);
      expect(word.top).toBeGreaterThan(28);
      expect(word.right).toBeLessThan(841.89 - 28);
      expect(word.bottom).toBeLessThan(595.28 - 28);
      if (qr !== null) expect(overlap(word, qr.box), `"${word.text}" lies on the QR code`).toBe(false);
    }
    words.forEach((word, index) => {
      for (const other of words.slice(index + 1)) {
        expect(overlap(word, other), `"${word.text}" overlaps "${other.text}"`).toBe(false);
      }
    });
  });

  it('cuts a course title too long for three lines with an ellipsis rather than running into the footer', async () => {
    const { path } = await renderToFile({ ...sample, courseTitle: `${LONG_COURSE} ${LONG_COURSE} ${LONG_COURSE}` });
    expect(poppler('pdfinfo', [path]).toString('utf8')).toMatch(/^Pages:\s+1$/mu);
    const text = pageText(path);
    expect(text).toMatch(/^.*«Промышленная безопасность [^«»]+…» /u);
    expect(text).toContain('Номер сертификата: C-7K3M-9QXA-2F8D');
  });

  it('leaves out the expiry line when the certificate does not expire', async () => {
    const { path } = await renderToFile({ ...sample, validUntil: null });
    const text = pageText(path);
    expect(text).not.toContain('Действителен до');
    expect(text).toContain('Дата завершения: 28.11.2026');
  });

  it('leaves out the signature block when no signer is set', async () => {
    const { path } = await renderToFile({ ...sample, signerName: null, signerPosition: null });
    const text = pageText(path);
    expect(text).not.toContain('Петров Алексей Николаевич');
    expect(text).not.toContain('Директор по персоналу');
    expect(text).toContain('Номер сертификата: C-7K3M-9QXA-2F8D');
  });

  it('embeds the company logo when there is one, and no image otherwise', async () => {
    const withLogo = await renderToFile({ ...sample, logo: { bytes: tinyPng(12, 4), type: 'png' } });
    expect(listImages(withLogo.path)).toEqual([{ width: 12, height: 4 }]);
    expect(pageText(withLogo.path)).toContain('Корпоративная академия');

    const withoutLogo = await renderToFile(sample);
    expect(listImages(withoutLogo.path)).toEqual([]);
  });

  it('rejects logo bytes that are not an image of the stated type', async () => {
    await expect(
      renderCertificate({ ...sample, logo: { bytes: new Uint8Array([1, 2, 3]), type: 'png' } }),
    ).rejects.toThrow();
  });
});
