import type { Color, PDFFont, PDFPage } from 'pdf-lib';
import { rgb } from 'pdf-lib';
import type { FittedText } from './text-fit.js';

/** What the body and the foot of the certificate share: page, colours, fonts, centred lines. */

/** A4 landscape in points. */
export const PAGE_WIDTH = 841.89;
export const PAGE_HEIGHT = 595.28;
export const CENTER_X = PAGE_WIDTH / 2;

/** One accent colour (a deep blue that prints well in grey too) and two greys for the text. */
export const ACCENT = rgb(0.11, 0.25, 0.43);
export const INK = rgb(0.12, 0.12, 0.14);
export const MUTED = rgb(0.38, 0.38, 0.42);

/** How much room a line of text takes, in font sizes. */
export const LINE_HEIGHT = 1.25;

/** The three faces of a certificate, embedded in its document. */
export interface CertificateFonts {
  serifBold: PDFFont;
  sansBold: PDFFont;
  sans: PDFFont;
}

export interface LineStyle {
  font: PDFFont;
  color: Color;
  x: number;
  /** The first line's baseline; further lines go down by LINE_HEIGHT. */
  baseline: number;
}

/** Each line centred on `style.x`: the certificate's text is all centred, on the page or in a column. */
export function drawCentered(page: PDFPage, fitted: FittedText, style: LineStyle): void {
  fitted.lines.forEach((line, index) => {
    const width = style.font.widthOfTextAtSize(line, fitted.size);
    page.drawText(line, {
      x: style.x - width / 2,
      y: style.baseline - index * fitted.size * LINE_HEIGHT,
      size: fitted.size,
      font: style.font,
      color: style.color,
    });
  });
}
