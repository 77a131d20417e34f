import { describe, expect, it } from 'vitest';
import { T } from './texts';

describe('constructor texts with numbers', () => {
  it("the length counter 'N/max символов' follows max ('из 21 символа')", () => {
    expect(T.counter(12, 150)).toBe('12/150 символов');
    expect(T.counter(3, 21)).toBe('3/21 символа');
    expect(T.counter(0, 255)).toBe('0/255 символов');
  });
});
