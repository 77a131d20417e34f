import { describe, expect, it } from 'vitest';
import { T } from './texts';

describe('analytics texts with numbers (Russian plural forms)', () => {
  it.each([
    [2, 5, '2/5 пройдено занятий'],
    [0, 1, '0/1 пройдено занятия'],
    [3, 21, '3/21 пройдено занятия'],
    [4, 11, '4/11 пройдено занятий'],
    [2, 4, '2/4 пройдено занятий'],
  ])('%i of %i → %s', (done, total, text) => {
    expect(T.itemsDone(done, total)).toBe(text);
  });
});
