import { analyticsEmployee } from '@lms/contract';
import { describe, expect, it } from 'vitest';
import { random } from '../../test/random.js';
import { employeeJson, employeeOf, type Placed } from './service.js';

const AWKWARD = [
  '',
  'Иванов',
  'O\'Neil "Джо"',
  'back\\slash',
  'line\nbreak\ttab',
  '\u0001\u001f',
  '😀 emoji',
  '\u2028\u2029',
  '</script>',
];

describe('an overview employee written directly', () => {
  it('is the text JSON.stringify writes for the object, for any field values', () => {
    const rnd = random(20261124);
    const text = () => rnd.pick(AWKWARD) + rnd.pick(AWKWARD);
    const maybe = <T>(v: T) => (rnd.chance(0.3) ? null : v);
    for (let i = 0; i < 500; i++) {
      const deadline = maybe(new Date(Date.UTC(2026, rnd.int(12), 1 + rnd.int(28), rnd.int(24))).toISOString());
      const placed: Placed = {
        user: {
          id: 1 + rnd.int(100_000),
          first_name: text(),
          last_name: text(),
          email: text(),
          photo_path: maybe(`photos/${rnd.int(99)}.png`),
          last_activity_at: maybe('2026-11-20T08:00:00.000Z'),
          department_name: maybe(text()),
        },
        name: text(),
        urgent: rnd.chance(0.2)
          ? undefined
          : {
              course_id: 1 + rnd.int(500),
              title: text(),
              deadline,
              status: deadline ? rnd.pick(['overdue', 'almost_overdue', 'in_order'] as const) : null,
              progress: rnd.int(101),
            },
      };
      const written = employeeJson(placed, new Map());
      expect(written).toBe(JSON.stringify(employeeOf(placed, new Map())));
      expect(analyticsEmployee.parse(JSON.parse(written))).toEqual(JSON.parse(written));
    }
  });
});
