import { analyticsEmployee } from '@lms/contract';
import { describe, expect, it } from 'vitest';
import { PeopleTime } from '../../platform/peopleTime.js';
import { random } from '../../test/random.js';
import { employeeJson, employeeOf, overviewChunks, type Placed } from './service.js';

const people = new PeopleTime('Europe/Moscow');

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
      const written = employeeJson(placed, people);
      expect(written).toBe(JSON.stringify(employeeOf(placed, people)));
      expect(analyticsEmployee.parse(JSON.parse(written))).toEqual(JSON.parse(written));
    }
  });

  it('makes a whole overview of several chunks that reads back as the groups of objects', () => {
    const rnd = random(7);
    const person = (id: number): Placed => ({
      user: {
        id,
        first_name: `Имя ${rnd.pick(AWKWARD)}`,
        last_name: 'Ёлкина'.repeat(1 + rnd.int(40)),
        email: `u${id}@company.ru`,
        photo_path: null,
        last_activity_at: null,
        department_name: rnd.pick(AWKWARD),
      },
      name: `Имя ${id} ${rnd.pick(AWKWARD)}`,
      urgent: { course_id: 1, title: 'Курс «Охрана труда»', deadline: null, status: null, progress: rnd.int(101) },
    });
    const groups = {
      overdue: Array.from({ length: 2500 }, (_, i) => person(i + 1)),
      almost_overdue: [],
      in_order: Array.from({ length: 1500 }, (_, i) => person(i + 5000)),
    };
    const chunks = [...overviewChunks(groups, people)];
    expect(chunks.length).toBeGreaterThan(3);
    expect(JSON.parse(Buffer.concat(chunks).toString('utf8'))).toEqual({
      result: {
        success: true,
        analytic: {
          overdue: groups.overdue.map((p) => employeeOf(p, people)),
          almost_overdue: [],
          in_order: groups.in_order.map((p) => employeeOf(p, people)),
        },
      },
    });
  });
});
