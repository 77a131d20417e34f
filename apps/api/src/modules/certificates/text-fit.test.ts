import { describe, expect, it } from 'vitest';
import { fitText, normalizeSpaces, wrapWords } from './text-fit.js';

/** Every character is as wide as the size: widths are easy to reason about. */
const monospace = { widthOfTextAtSize: (text: string, size: number) => Array.from(text).length * size };

describe('wrapWords', () => {
  it('fills each line with as many words as fit', () => {
    expect(wrapWords('one two three four', monospace, 1, 9)).toEqual(['one two', 'three', 'four']);
  });

  it('splits a word longer than a line by characters', () => {
    expect(wrapWords('ab abcdefghij', monospace, 1, 4)).toEqual(['ab', 'abcd', 'efgh', 'ij']);
  });
});

describe('fitText', () => {
  it('keeps the largest size when the text fits', () => {
    expect(fitText('Сертификат', monospace, { maxWidth: 100, largestSize: 10, smallestSize: 5, maxLines: 1 })).toEqual({
      size: 10,
      lines: ['Сертификат'],
    });
  });

  it('wraps at once by default, shrinking only when the lines run out', () => {
    const limits = { maxWidth: 20, largestSize: 2, smallestSize: 1, maxLines: 2 };
    expect(fitText('aaaa bbbb cccc', monospace, limits)).toEqual({ size: 2, lines: ['aaaa bbbb', 'cccc'] });
    expect(fitText('aaaa bbbb cccc dddd eeee', monospace, limits).lines).toHaveLength(2);
  });

  it('shrinks down to shrinkBeforeWrappingTo before it wraps', () => {
    const fitted = fitText('aaaa bbbb', monospace, {
      maxWidth: 18,
      largestSize: 4,
      shrinkBeforeWrappingTo: 2,
      smallestSize: 1,
      maxLines: 2,
    });
    expect(fitted).toEqual({ size: 2, lines: ['aaaa bbbb'] });
  });

  it('wraps at no more than largestWrappedSize', () => {
    const fitted = fitText('aaaa bbbb', monospace, {
      maxWidth: 16,
      largestSize: 4,
      shrinkBeforeWrappingTo: 3,
      largestWrappedSize: 3,
      smallestSize: 1,
      maxLines: 2,
    });
    expect(fitted).toEqual({ size: 3, lines: ['aaaa', 'bbbb'] });
  });

  it('cuts what does not fit even at the smallest size with an ellipsis, within the width', () => {
    const fitted = fitText('aaaa bbbb cccc dddd eeee', monospace, {
      maxWidth: 9,
      largestSize: 2,
      smallestSize: 1,
      maxLines: 2,
    });
    expect(fitted.size).toBe(1);
    expect(fitted.lines).toEqual(['aaaa bbbb', 'cccc…']);
    expect(
      fitText('abcdefghijkl', monospace, { maxWidth: 5, largestSize: 1, smallestSize: 1, maxLines: 1 }).lines,
    ).toEqual(['abcd…']);
    for (const line of fitted.lines) expect(monospace.widthOfTextAtSize(line, fitted.size)).toBeLessThanOrEqual(9);
  });

  it('tries the smallest size itself when the steps from the largest miss it', () => {
    const fitted = fitText('aaaa bbbb', monospace, { maxWidth: 9, largestSize: 1.3, smallestSize: 1, maxLines: 1 });
    expect(fitted).toEqual({ size: 1, lines: ['aaaa bbbb'] });
  });
});

describe('normalizeSpaces', () => {
  it('turns tabs and line breaks into single spaces', () => {
    expect(normalizeSpaces('  Иванова\tМария\n\nПетровна ')).toBe('Иванова Мария Петровна');
  });
});
