import { describe, expect, it } from 'vitest';
import { T } from './texts';

describe('constructor texts with numbers', () => {
  it("the length counter 'N/max символов' follows max ('из 21 символа')", () => {
    expect(T.counter(12, 150)).toBe('12/150 символов');
    expect(T.counter(3, 21)).toBe('3/21 символа');
    expect(T.counter(0, 255)).toBe('0/255 символов');
  });

  it('SCORM versions: sections, learners and files agree with their numbers', () => {
    expect([1, 2, 5, 11, 21, 22].map(T.scormScos)).toEqual([
      '1 раздел',
      '2 раздела',
      '5 разделов',
      '11 разделов',
      '21 раздел',
      '22 раздела',
    ]);
    expect([0, 1, 3, 12, 101].map(T.scormLearners)).toEqual([
      '0 учеников',
      '1 ученик',
      '3 ученика',
      '12 учеников',
      '101 ученик',
    ]);
    expect(T.scormFiles(4)).toBe('4 файла');
  });

  it('names the SCORM standard with its edition', () => {
    expect(T.scormStandard({ standard: '1.2', edition: null })).toBe('SCORM 1.2');
    expect(T.scormStandard({ standard: '2004', edition: '3rd' })).toBe('SCORM 2004 3rd Edition');
    expect(T.scormStandard({ standard: '2004', edition: null })).toBe('SCORM 2004');
  });
});
