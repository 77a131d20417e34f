import fontkit from '@pdf-lib/fontkit';
import { PDFDocument } from 'pdf-lib';
import type { Color, PDFFont, PDFImage, PDFPage } from 'pdf-lib';
import { certificateFontFiles } from './fonts.js';
import { FOOTER_TOP, drawDates, drawSigner, drawVerification } from './footer.js';
import { ACCENT, CENTER_X, INK, LINE_HEIGHT, MUTED, PAGE_HEIGHT, PAGE_WIDTH, drawCentered } from './page-style.js';
import type { CertificateFonts } from './page-style.js';
import { fitText, normalizeSpaces } from './text-fit.js';
import type { FitLimits, FittedText } from './text-fit.js';

export interface CertificateContent {
  /** Unique certificate number, e.g. 'C-7K3M-9QXA-2F8D' (shown as is). */
  number: string;
  /** 'Иванова Мария Петровна'; a long one shrinks, then wraps to two lines. */
  learnerName: string;
  /** Up to 150 characters: wraps to at most three lines, shrinking if needed. */
  courseTitle: string;
  /** The certificate's title set by the admin, by default 'Сертификат'. */
  title: string;
  /** Already formatted, '28.11.2026'. */
  completedOn: string;
  /** Formatted date when the course recurs, else null (then the line is left out). */
  validUntil: string | null;
  signerName: string | null;
  signerPosition: string | null;
  /** 'Корпоративная академия'. */
  companyName: string;
  /** The company's logo; bytes that are not a valid image of the type make rendering throw. */
  logo: { bytes: Uint8Array; type: 'png' | 'jpeg' } | null;
  /** 'https://learn.company.ru/verify/C-7K3M-9QXA-2F8D': the QR code and the short link printed under it. */
  verifyUrl: string;
}

/** The double border: a firm outer frame and a hairline just inside it. */
const OUTER_FRAME_INSET = 22;
const INNER_FRAME_INSET = 28;

const LOGO_BOX = { width: 150, height: 42, top: PAGE_HEIGHT - 54 };
/** The centre column: title, name, course. */
const BODY_WIDTH = 600;
/** The title may run a little wider than the rest: it is the one line meant to be seen from afar. */
const TITLE_WIDTH = 680;
/** The body's lowest point: clear of the QR code by more than its quiet zone (4 modules, about 9 pt). */
const BODY_BOTTOM = FOOTER_TOP + 30;
/** How far above its baseline a line's box starts, in font sizes. */
const ASCENT = 0.8;

/** A4 landscape certificate of completion with the text in Russian; the PDF's bytes. */
export async function renderCertificate(content: CertificateContent): Promise<Uint8Array> {
  const document = await PDFDocument.create();
  document.registerFontkit(fontkit);
  const files = await certificateFontFiles();
  // Subsetting keeps only the glyphs used: the full DejaVu files would add about 2 MB to every certificate.
  const fonts: CertificateFonts = {
    serifBold: await document.embedFont(files.serifBold, { subset: true }),
    sansBold: await document.embedFont(files.sansBold, { subset: true }),
    sans: await document.embedFont(files.sans, { subset: true }),
  };
  const logo = content.logo === null ? null : await embedLogo(document, content.logo);

  setMetadata(document, content);
  const page = document.addPage([PAGE_WIDTH, PAGE_HEIGHT]);
  drawFrame(page);
  const headerBottom = drawHeader(page, fonts, content.companyName, logo);
  drawBody(page, fonts, content, headerBottom);
  drawSigner(page, fonts, content.signerName, content.signerPosition);
  drawDates(page, fonts, content);
  drawVerification(page, fonts, content.verifyUrl);
  return document.save();
}

function embedLogo(document: PDFDocument, logo: NonNullable<CertificateContent['logo']>): Promise<PDFImage> {
  return logo.type === 'png' ? document.embedPng(logo.bytes) : document.embedJpg(logo.bytes);
}

function setMetadata(document: PDFDocument, content: CertificateContent): void {
  document.setTitle(`${normalizeSpaces(content.title)} № ${content.number}`);
  document.setAuthor(content.companyName);
  document.setSubject(`${normalizeSpaces(content.learnerName)}: ${normalizeSpaces(content.courseTitle)}`);
  document.setCreator(content.companyName);
  document.setLanguage('ru-RU');
}

function drawFrame(page: PDFPage): void {
  const frame = (inset: number, borderWidth: number) =>
    page.drawRectangle({
      x: inset,
      y: inset,
      width: PAGE_WIDTH - 2 * inset,
      height: PAGE_HEIGHT - 2 * inset,
      borderColor: ACCENT,
      borderWidth,
    });
  frame(OUTER_FRAME_INSET, 1.6);
  frame(INNER_FRAME_INSET, 0.6);
}

/** The logo (if any) and the company's name above the title; returns the lowest point they reach. */
function drawHeader(page: PDFPage, fonts: CertificateFonts, companyName: string, logo: PDFImage | null): number {
  let top = LOGO_BOX.top;
  if (logo !== null) {
    // Logos come in any pixel size: fit the box whichever side is the limit, keeping the proportions.
    const scale = Math.min(LOGO_BOX.width / logo.width, LOGO_BOX.height / logo.height);
    const width = logo.width * scale;
    const height = logo.height * scale;
    page.drawImage(logo, { x: CENTER_X - width / 2, y: top - height, width, height });
    top -= height + 12;
  } else {
    top -= 12;
  }
  const company = fitText(companyName, fonts.sans, {
    maxWidth: BODY_WIDTH,
    largestSize: 12,
    smallestSize: 9,
    maxLines: 1,
  });
  const baseline = top - company.size;
  drawCentered(page, company, { font: fonts.sans, color: ACCENT, x: CENTER_X, baseline });
  // The space under the company's name keeps it apart from a title that fills its room.
  return baseline - 28;
}

interface BodyBlock {
  fitted: FittedText;
  font: PDFFont;
  color: Color;
  /** Space above the block. */
  gapBefore: number;
}

/**
 * Title, the learner and the course, centred in the space between the header and the footer. When
 * a long name and a long course title together do not fit there, everything shrinks a step and is
 * fitted again, so that nothing ever runs into the footer.
 */
function drawBody(page: PDFPage, fonts: CertificateFonts, content: CertificateContent, headerBottom: number): void {
  const available = headerBottom - BODY_BOTTOM;
  let scale = 1;
  let blocks = bodyBlocks(fonts, content, scale);
  while (bodyHeight(blocks) > available && scale > 0.6) {
    scale -= 0.05;
    blocks = bodyBlocks(fonts, content, scale);
  }
  let cursor = BODY_BOTTOM + (available + bodyHeight(blocks)) / 2;
  blocks.forEach((block, index) => {
    cursor -= block.gapBefore;
    const baseline = cursor - block.fitted.size * ASCENT;
    drawCentered(page, block.fitted, { font: block.font, color: block.color, x: CENTER_X, baseline });
    cursor -= blockHeight(block.fitted);
    if (index === 0) drawTitleRule(page, cursor - 12 * scale);
  });
}

function bodyBlocks(fonts: CertificateFonts, content: CertificateContent, scale: number): BodyBlock[] {
  // Sizes shrink with the scale, but never below the smallest size: that is what is still legible.
  const scaled = (size: number | undefined, smallestSize: number) =>
    size === undefined ? undefined : Math.max(size * scale, smallestSize);
  const fit = (text: string, font: PDFFont, limits: Omit<FitLimits, 'maxWidth'> & { maxWidth?: number }) =>
    fitText(text, font, {
      ...limits,
      maxWidth: limits.maxWidth ?? BODY_WIDTH,
      largestSize: Math.max(limits.largestSize * scale, limits.smallestSize),
      shrinkBeforeWrappingTo: scaled(limits.shrinkBeforeWrappingTo, limits.smallestSize),
      largestWrappedSize: scaled(limits.largestWrappedSize, limits.smallestSize),
    });
  const course = quoted(content.courseTitle);
  const lead = (text: string) => fit(text, fonts.sans, { largestSize: 13, smallestSize: 10, maxLines: 1 });
  return [
    {
      fitted: fit(content.title, fonts.serifBold, {
        maxWidth: TITLE_WIDTH,
        largestSize: 40,
        shrinkBeforeWrappingTo: 28,
        largestWrappedSize: 30,
        smallestSize: 20,
        maxLines: 2,
      }),
      font: fonts.serifBold,
      color: ACCENT,
      gapBefore: 0,
    },
    // The gap below the title leaves room for the short rule under it.
    { fitted: lead('Настоящим подтверждается, что'), font: fonts.sans, color: MUTED, gapBefore: 40 * scale },
    {
      fitted: fit(content.learnerName, fonts.serifBold, {
        largestSize: 28,
        shrinkBeforeWrappingTo: 22,
        largestWrappedSize: 22,
        smallestSize: 16,
        maxLines: 2,
      }),
      font: fonts.serifBold,
      color: INK,
      gapBefore: 12 * scale,
    },
    { fitted: lead('успешно прошел(а) курс'), font: fonts.sans, color: MUTED, gapBefore: 12 * scale },
    {
      fitted: fit(course.text, fonts.sansBold, {
        largestSize: 18,
        smallestSize: 11,
        maxLines: 3,
        cutMark: course.cutMark,
      }),
      font: fonts.sansBold,
      color: INK,
      gapBefore: 12 * scale,
    },
  ];
}

/**
 * Russian typography puts a course's name in «guillemets», unless the admin already quoted it; a
 * title cut for length keeps its closing quote after the ellipsis.
 */
function quoted(courseTitle: string): { text: string; cutMark: string } {
  const clean = normalizeSpaces(courseTitle);
  if (/^[«"„“]/u.test(clean)) return { text: clean, cutMark: '…' };
  return { text: `«${clean}»`, cutMark: '…»' };
}

function blockHeight(fitted: FittedText): number {
  return fitted.size * LINE_HEIGHT * fitted.lines.length;
}

function bodyHeight(blocks: readonly BodyBlock[]): number {
  return blocks.reduce((sum, block) => sum + block.gapBefore + blockHeight(block.fitted), 0);
}

function drawTitleRule(page: PDFPage, y: number): void {
  page.drawLine({ start: { x: CENTER_X - 36, y }, end: { x: CENTER_X + 36, y }, thickness: 1, color: ACCENT });
}
