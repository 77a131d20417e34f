import { PDFString } from 'pdf-lib';
import type { PDFPage } from 'pdf-lib';
import { ACCENT, CENTER_X, INK, LINE_HEIGHT, MUTED, PAGE_WIDTH, drawCentered } from './page-style.js';
import type { CertificateFonts } from './page-style.js';
import { qrPath } from './qr.js';
import { fitText } from './text-fit.js';

/** The three columns at the foot of the page: signer on the left, dates in the middle, QR on the right. */
const FOOTER_COLUMN_WIDTH = 220;
const SIGNER_CENTER_X = 170;
const QR_CENTER_X = PAGE_WIDTH - 170;
const SIGNATURE_LINE_Y = 104;
const QR_SIZE = 76;
const QR_BOTTOM = 76;
/** The highest point of the foot (the QR code's top edge): the body stays above it. */
export const FOOTER_TOP = QR_BOTTOM + QR_SIZE;

/** A line to sign on, with the signer's name and position under it; nothing when no signer is set. */
export function drawSigner(
  page: PDFPage,
  fonts: CertificateFonts,
  signerName: string | null,
  signerPosition: string | null,
): void {
  if (signerName === null && signerPosition === null) return;
  const half = FOOTER_COLUMN_WIDTH / 2 - 10;
  page.drawLine({
    start: { x: SIGNER_CENTER_X - half, y: SIGNATURE_LINE_Y },
    end: { x: SIGNER_CENTER_X + half, y: SIGNATURE_LINE_Y },
    thickness: 0.6,
    color: INK,
  });
  let baseline = SIGNATURE_LINE_Y - 16;
  if (signerName !== null) {
    const name = fitText(signerName, fonts.sansBold, {
      maxWidth: FOOTER_COLUMN_WIDTH,
      largestSize: 11,
      smallestSize: 8,
      maxLines: 1,
    });
    drawCentered(page, name, { font: fonts.sansBold, color: INK, x: SIGNER_CENTER_X, baseline });
    baseline -= name.size * LINE_HEIGHT + 1;
  }
  if (signerPosition !== null) {
    const position = fitText(signerPosition, fonts.sans, {
      maxWidth: FOOTER_COLUMN_WIDTH,
      largestSize: 9,
      smallestSize: 7,
      maxLines: 2,
    });
    drawCentered(page, position, { font: fonts.sans, color: MUTED, x: SIGNER_CENTER_X, baseline });
  }
}

/** Completion date, expiry and the number, stacked in the middle of the foot, level with the signature line. */
export function drawDates(
  page: PDFPage,
  fonts: CertificateFonts,
  content: { completedOn: string; validUntil: string | null; number: string },
): void {
  const lines = [
    `Дата завершения: ${content.completedOn}`,
    ...(content.validUntil === null ? [] : [`Действителен до: ${content.validUntil}`]),
    `Номер сертификата: ${content.number}`,
  ];
  let baseline = SIGNATURE_LINE_Y + 4;
  for (const line of lines) {
    const fitted = fitText(line, fonts.sans, {
      maxWidth: FOOTER_COLUMN_WIDTH + 40,
      largestSize: 10,
      smallestSize: 7,
      maxLines: 1,
    });
    drawCentered(page, fitted, { font: fonts.sans, color: INK, x: CENTER_X, baseline });
    baseline -= 15;
  }
}

/** The QR code of the verification address, the short link under it, and a clickable area over both. */
export function drawVerification(page: PDFPage, fonts: CertificateFonts, verifyUrl: string): void {
  const { moduleCount, svgPath } = qrPath(verifyUrl);
  const moduleSize = QR_SIZE / moduleCount;
  const left = QR_CENTER_X - QR_SIZE / 2;
  const top = QR_BOTTOM + QR_SIZE;
  // drawSvgPath puts the path's origin at (x, y) with y pointing down, as the QR's rows do.
  page.drawSvgPath(svgPath, { x: left, y: top, scale: moduleSize, color: INK, borderWidth: 0 });

  const caption = fitText('Проверить подлинность:', fonts.sans, {
    maxWidth: FOOTER_COLUMN_WIDTH,
    largestSize: 8,
    smallestSize: 7,
    maxLines: 1,
  });
  let baseline = QR_BOTTOM - 12;
  drawCentered(page, caption, { font: fonts.sans, color: MUTED, x: QR_CENTER_X, baseline });
  baseline -= caption.size * LINE_HEIGHT;
  const link = fitText(shortLink(verifyUrl), fonts.sans, {
    maxWidth: FOOTER_COLUMN_WIDTH,
    largestSize: 8,
    smallestSize: 6,
    maxLines: 2,
  });
  drawCentered(page, link, { font: fonts.sans, color: ACCENT, x: QR_CENTER_X, baseline });
  const linkBottom = baseline - link.size * LINE_HEIGHT * (link.lines.length - 1) - link.size * 0.3;
  addLink(page, verifyUrl, [
    QR_CENTER_X - FOOTER_COLUMN_WIDTH / 2,
    linkBottom,
    QR_CENTER_X + FOOTER_COLUMN_WIDTH / 2,
    top,
  ]);
}

/** What a person would type: the address without its scheme. */
export function shortLink(url: string): string {
  return url.replace(/^https?:\/\//iu, '').replace(/\/$/u, '');
}

/** pdf-lib draws no link annotations itself; this is the plain URI action every viewer follows. */
function addLink(page: PDFPage, url: string, rect: [number, number, number, number]): void {
  const { context } = page.doc;
  const annotation = context.register(
    context.obj({
      Type: 'Annot',
      Subtype: 'Link',
      Rect: rect,
      Border: [0, 0, 0],
      A: { Type: 'Action', S: 'URI', URI: PDFString.of(url) },
    }),
  );
  page.node.addAnnot(annotation);
}
