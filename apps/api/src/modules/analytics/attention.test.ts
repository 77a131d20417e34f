import { describe, expect, it } from 'vitest';
import { random } from '../../test/random.js';
import { Attention } from './service.js';

const FIRST = ['Анна', 'Борис', 'Ёлка', 'Ефим', 'Яна', 'анна'];
const LAST = ['Иванова', 'Петров', 'Ёжиков', 'Егоров', 'Андреев'];

describe('the weekly digest group', () => {
  it('counts every course and person and keeps exactly the first lines of a full sort', () => {
    const rnd = random(1605);
    for (let round = 0; round < 200; round++) {
      const size = rnd.pick([0, 1, 3, 50]);
      const group = new Attention(size);
      const all: { user_id: number; name: string; course_id: number; deadline: string; order: number }[] = [];
      const n = rnd.int(120);
      for (let i = 0; i < n; i++) {
        const user = { id: 1 + rnd.int(40), first_name: rnd.pick(FIRST), last_name: rnd.pick(LAST) };
        const deadline = new Date(Date.UTC(2026, 2, 1 + rnd.int(6), rnd.int(3))).toISOString();
        const courseId = 1 + rnd.int(5);
        group.add(user, courseId, deadline);
        all.push({
          user_id: user.id,
          name: `${user.last_name} ${user.first_name}`,
          course_id: courseId,
          deadline,
          order: i,
        });
      }
      const ru = new Intl.Collator('ru');
      const sorted = [...all].sort(
        (a, b) => a.deadline.localeCompare(b.deadline) || ru.compare(a.name, b.name) || a.order - b.order,
      );
      expect(group.total, `round ${round}`).toBe(n);
      expect(group.people.size).toBe(new Set(all.map((e) => e.user_id)).size);
      expect(group.first).toEqual(sorted.slice(0, size).map(({ order: _order, ...e }) => e));
    }
  });
});
