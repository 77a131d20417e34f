import { describe, expect, it } from 'vitest';
import { TEST_TEXTS } from './testTexts';

describe('test texts with numbers', () => {
  it("'correct/total правильных ответов' reads 'correct из total': the noun follows the total", () => {
    expect(TEST_TEXTS.correctOf(1, 1)).toBe('1/1 правильного ответа');
    expect(TEST_TEXTS.correctOf(0, 21)).toBe('0/21 правильного ответа');
    expect(TEST_TEXTS.correctOf(2, 5)).toBe('2/5 правильных ответов');
    expect(TEST_TEXTS.correctOf(3, 11)).toBe('3/11 правильных ответов');
  });
});
