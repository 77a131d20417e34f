import QRCode from 'qrcode';

export interface QrPath {
  /** Modules per side, without the quiet zone. */
  moduleCount: number;
  /** The dark modules as one SVG path in module units, y pointing down (row 0 on top). */
  svgPath: string;
}

/**
 * The QR code of `text` as a single path of its dark modules. One filled path rather than a square
 * per module: neighbouring squares leave hairline seams when a viewer or printer anti-aliases their
 * edges, which can make the code harder to scan. Runs of dark modules in a row become one rectangle
 * to keep the path short. Level M survives a crease or a smudge on a printed copy.
 */
export function qrPath(text: string): QrPath {
  const { modules } = QRCode.create(text, { errorCorrectionLevel: 'M' });
  const moduleCount = modules.size;
  const rectangles: string[] = [];
  for (let row = 0; row < moduleCount; row += 1) {
    let column = 0;
    while (column < moduleCount) {
      if (!modules.get(row, column)) {
        column += 1;
        continue;
      }
      const runStart = column;
      while (column < moduleCount && modules.get(row, column)) column += 1;
      const runLength = column - runStart;
      rectangles.push(`M${runStart} ${row}h${runLength}v1h${-runLength}z`);
    }
  }
  return { moduleCount, svgPath: rectangles.join('') };
}
