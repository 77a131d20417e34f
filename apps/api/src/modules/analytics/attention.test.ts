import { describe, expect, it } from 'vitest';
import { random } from '../../test/random.js';
import { LeadingLines, type Lead } from './service.js';

const FIRST = ['Анна', 'Борис', 'Ёлка', 'Ефим', 'Яна', 'анна'];
const LAST = ['Иванова', 'Петров', 'Ёжиков', 'Егоров', 'Андреев'];

describe('the first lines of a weekly digest group', () => {
  it('keeps exactly the leads whose first line is among the first lines of a full sort', () => {
    const rnd = random(1605);
    const ru = new Intl.Collator('ru');
    for (let round = 0; round < 300; round++) {
      const size = rnd.pick([0, 1, 3, 50]);
      const group = new LeadingLines(size);
      const people = Array.from({ length: 1 + rnd.int(40) }, (_, i) => ({
        id: i + 1,
        // Few names and deadlines: most leads tie with others on both.
        name: `${rnd.pick(LAST)} ${rnd.pick(FIRST)}`,
      }));
      const seen = new Set<string>();
      const all: Lead[] = [];
      for (let i = rnd.int(120); i > 0; i--) {
        const person = rnd.pick(people);
        const deadline = new Date(Date.UTC(2026, 2, 1 + rnd.int(4), rnd.int(2))).toISOString();
        // One lead per person and deadline, as the learning state hands them over.
        if (seen.has(`${person.id} ${deadline}`)) continue;
        seen.add(`${person.id} ${deadline}`);
        const lead = { user_id: person.id, name: person.name, deadline, courses: 1 + rnd.int(rnd.pick([1, 4, 60])) };
        all.push(lead);
        group.add(lead);
      }
      const sorted = [...all].sort(
        (a, b) => a.deadline.localeCompare(b.deadline) || ru.compare(a.name, b.name) || a.user_id - b.user_id,
      );
      const expected: Lead[] = [];
      let lines = 0;
      for (const lead of sorted) {
        if (lines >= size) break;
        expected.push(lead);
        lines += lead.courses;
      }
      expect(group.leads, `round ${round}`).toEqual(expected);
    }
  });
});
