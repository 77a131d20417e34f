/** The part of a pdf-lib font that measuring text needs (so that the fitting is testable without a PDF). */
export interface TextMeasure {
  widthOfTextAtSize(text: string, size: number): number;
}

export interface FitLimits {
  maxWidth: number;
  /** The size to use when the text fits at it; the text only ever shrinks from here. */
  largestSize: number;
  /** Below this the text stays legible no longer: what still does not fit is cut with an ellipsis. */
  smallestSize: number;
  maxLines: number;
  /**
   * While the text can stay on fewer lines it shrinks down to this size before it wraps (a name
   * split over two lines reads worse than a slightly smaller one); by default it wraps at once.
   */
  shrinkBeforeWrappingTo?: number;
  /** The largest size once the text takes more than one line (a two-line title at full size would dwarf the rest). */
  largestWrappedSize?: number;
  /** What ends a cut text: an ellipsis, and for a quoted text the closing quote after it. */
  cutMark?: string;
}

export interface FittedText {
  size: number;
  lines: string[];
}

const ELLIPSIS = '…';
/** Small enough steps that a shrunk line still nearly fills its width. */
const SIZE_STEP = 0.5;

/**
 * Collapses any run of white space (a pasted name may carry tabs or line breaks) into one space: a
 * line break inside a pdf-lib text run would start a line that the layout did not measure.
 */
export function normalizeSpaces(text: string): string {
  return text.replace(/\s+/gu, ' ').trim();
}

/**
 * The fewest lines, then the largest size, at which the text fits in `maxLines` lines of `maxWidth`
 * (see `shrinkBeforeWrappingTo`). At the smallest size whatever is still left over is cut with an
 * ellipsis, so that the text never runs into what is drawn below it.
 */
export function fitText(text: string, font: TextMeasure, limits: FitLimits): FittedText {
  const clean = normalizeSpaces(text);
  for (let lineCount = 1; lineCount <= limits.maxLines; lineCount += 1) {
    const isLastChance = lineCount === limits.maxLines;
    const floor = isLastChance ? limits.smallestSize : (limits.shrinkBeforeWrappingTo ?? limits.largestSize);
    const ceiling = lineCount === 1 ? limits.largestSize : (limits.largestWrappedSize ?? limits.largestSize);
    for (const size of sizesFromTo(ceiling, floor)) {
      const lines = wrapWords(clean, font, size, limits.maxWidth);
      if (lines.length <= lineCount) return { size, lines };
    }
  }
  const size = limits.smallestSize;
  const lines = wrapWords(clean, font, size, limits.maxWidth);
  if (lines.length <= limits.maxLines) return { size, lines };
  const kept = lines.slice(0, limits.maxLines);
  const lastIndex = kept.length - 1;
  const last = kept[lastIndex];
  if (last !== undefined) kept[lastIndex] = cutToWidth(last, limits.cutMark ?? ELLIPSIS, font, size, limits.maxWidth);
  return { size, lines: kept };
}

/** From `largest` down in steps, ending on `smallest` itself (a scaled size seldom lands on a step). */
function sizesFromTo(largest: number, smallest: number): number[] {
  const sizes: number[] = [];
  for (let size = largest; size > smallest; size -= SIZE_STEP) sizes.push(size);
  sizes.push(smallest);
  return sizes;
}

/** Greedy word wrap; a word wider than the whole line (a long link, a name without spaces) is split by characters. */
export function wrapWords(text: string, font: TextMeasure, size: number, maxWidth: number): string[] {
  const fits = (candidate: string) => font.widthOfTextAtSize(candidate, size) <= maxWidth;
  const lines: string[] = [];
  let current = '';
  for (const word of text.split(' ').filter((part) => part.length > 0)) {
    const joined = current === '' ? word : `${current} ${word}`;
    if (fits(joined)) {
      current = joined;
      continue;
    }
    if (current !== '') lines.push(current);
    current = '';
    for (const piece of splitByCharacters(word, fits)) {
      if (current !== '') lines.push(current);
      current = piece;
    }
  }
  if (current !== '') lines.push(current);
  return lines;
}

function splitByCharacters(word: string, fits: (candidate: string) => boolean): string[] {
  const pieces: string[] = [];
  let piece = '';
  // Array.from walks code points, so a character outside the BMP is never cut in half.
  for (const character of Array.from(word)) {
    if (piece !== '' && !fits(piece + character)) {
      pieces.push(piece);
      piece = '';
    }
    piece += character;
  }
  if (piece !== '') pieces.push(piece);
  return pieces;
}

/** Drops whole words, or characters of a line that is one word, until the line and the cut mark fit. */
function cutToWidth(line: string, cutMark: string, font: TextMeasure, size: number, maxWidth: number): string {
  let body = line;
  while (body !== '' && font.widthOfTextAtSize(body + cutMark, size) > maxWidth) {
    const lastSpace = body.lastIndexOf(' ');
    body = lastSpace > 0 ? body.slice(0, lastSpace) : Array.from(body).slice(0, -1).join('');
  }
  return body.trimEnd() + cutMark;
}
