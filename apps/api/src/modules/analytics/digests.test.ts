import { ScormRepository } from '../scorm/repository.js';
import { ScormResults } from '../scorm/results.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { UnitOfWork } from '../../db/unitOfWork.js';
import { DAY, HOUR, iso } from '../../platform/clock.js';
import { PeopleTime } from '../../platform/peopleTime.js';
import type { SessionUser } from '../../platform/sessions.js';
import {
  createCourse,
  createDepartment,
  createTestApp,
  createUser,
  dialectName,
  type TestContext,
} from '../../test/harness.js';
import { random } from '../../test/random.js';
import type { RoleCode } from '@lms/contract';
import { fullName } from '../auth/permissions.js';
import { CatalogueRepository } from '../catalogue/repository.js';
import { CoursesRepository } from '../courses/repository.js';
import { deadlineStatus, warningAt } from '../progress/engine.js';
import { learningStatesOver } from '../progress/standalone.js';
import { UsersRepository } from '../users/repository.js';
import { AnalyticsService, type AttentionEntry, type AttentionGroup } from './service.js';

const FIRST = ['Анна', 'Борис', 'Ёлка', 'Ефим', 'Яна'];
const LAST = ['Иванова', 'Петров', 'Ёжиков', 'Егоров'];

interface Person extends SessionUser {
  deleted: boolean;
}

interface Row {
  user_id: number;
  course_id: number;
  deadline: string | null;
  enrolled: boolean;
  completed: boolean;
}

describe(`the weekly digests (${dialectName})`, () => {
  let ctx: TestContext;
  beforeEach(async () => {
    ctx = await createTestApp();
  });
  afterEach(async () => {
    await ctx.close();
  });

  it("give each viewer exactly their team's counts and most urgent lines, ties of deadline and name included", async () => {
    const k = ctx.db.kysely;
    const rnd = random(2026_16_02);
    const now = new Date('2026-06-10T12:00:00.000Z');
    ctx.clock.set(now);
    const departments = [await createDepartment(ctx.db, 'Склад'), await createDepartment(ctx.db, 'Офис')];
    const people: Person[] = [];
    const person = async (role: RoleCode, department: number | null, deleted = false) => {
      const first_name = rnd.pick(FIRST);
      const last_name = rnd.pick(LAST);
      const u = await createUser(ctx.db, { role, department_id: department, first_name, last_name });
      if (deleted)
        await k
          .updateTable('users')
          .set({ deleted_at: iso(now) })
          .where('id', '=', u.id)
          .execute();
      const roleName = role === 'admin' ? 'Администратор' : role === 'manager' ? 'Руководитель' : 'Сотрудник';
      people.push({
        id: u.id,
        email: u.email,
        first_name,
        last_name,
        role,
        role_name: roleName,
        department_id: department,
        deleted,
      });
    };
    // Two managers in the first department (each sees the other), one in the second, one without any.
    for (const [role, dep] of [
      ['manager', departments[0]],
      ['manager', departments[0]],
      ['manager', departments[1]],
      ['manager', null],
      ['admin', null],
      ['admin', departments[1]],
    ] as const)
      await person(role, dep ?? null);
    for (let i = 0; i < 22; i++) await person('learner', i % 7 === 6 ? null : (rnd.pick(departments) ?? null), i === 5);

    const courses: { id: number; title: string; warning: number; deleted: boolean }[] = [];
    for (let i = 0; i < 6; i++) {
      const title = `Курс ${i}`;
      const id = await createCourse(ctx.db, title, { is_published: true });
      const c = { id, title, warning: rnd.int(4), deleted: i === 5 };
      await k
        .updateTable('courses')
        .set({
          // Taken off the catalogue since: its learners' deadlines still stand, as on the screen.
          is_published: i !== 4,
          has_deadline: true,
          deadline_value: 10,
          deadline_warning_days: c.warning,
          deleted_at: c.deleted ? iso(now) : null,
        })
        .where('id', '=', id)
        .execute();
      courses.push(c);
    }
    // Few distinct deadlines, around the moments that change a status: many ties.
    const deadlines = [-3 * DAY, -HOUR, -1, 0, 1, DAY, 2 * DAY, 3 * DAY + 1, 9 * DAY].map((d) =>
      iso(new Date(now.getTime() + d)),
    );
    const rows: Row[] = [];
    for (const p of people)
      for (const c of courses)
        if (rnd.chance(0.75))
          rows.push({
            user_id: p.id,
            course_id: c.id,
            deadline: rnd.chance(0.1) ? null : rnd.pick(deadlines),
            enrolled: rnd.chance(0.92),
            completed: rnd.chance(0.1),
          });
    await k
      .insertInto('learning_states')
      .values(
        rows.map((r) => ({
          user_id: r.user_id,
          course_id: r.course_id,
          cycle: 1,
          cycle_start: null,
          started_at: null,
          completed_at: r.completed ? iso(now) : null,
          lessons_completed: 0,
          tests_completed: 0,
          deadline: r.deadline,
          valid_until: null,
          enrolled_at: r.enrolled ? iso(new Date(now.getTime() - 20 * DAY)) : null,
          warning_at: warningAt(
            { deadline_warning_days: courses.find((c) => c.id === r.course_id)?.warning ?? 0 },
            r.deadline,
          ),
        })),
      )
      .execute();

    const uow = new UnitOfWork(k, ctx.db.kind);
    const kept = learningStatesOver(uow, ctx.clock);
    const engine = kept.engine;
    const analytics = new AnalyticsService(
      new UsersRepository(uow),
      new CoursesRepository(uow),
      new CatalogueRepository(uow),
      engine,
      new PeopleTime('Europe/Moscow'),
      new ScormResults(new ScormRepository(uow)),
    );

    // The rule, restated: an admin's team is every live person, a manager's the other live people of
    // their department; each enrolled, unfinished course of a live course past its warning or deadline
    // counts, and the lines are the first by deadline, Russian name, person and course.
    const ru = new Intl.Collator('ru');
    const expectedFor = (viewer: Person, lines: number) => {
      const team = people.filter(
        (p) =>
          !p.deleted &&
          (viewer.role === 'admin' ||
            (viewer.department_id !== null && p.department_id === viewer.department_id && p.id !== viewer.id)),
      );
      const entries: AttentionEntry[] = [];
      for (const r of rows) {
        const p = team.find((t) => t.id === r.user_id);
        const c = courses.find((x) => x.id === r.course_id);
        if (!p || !c || c.deleted || !r.enrolled || r.completed || r.deadline === null) continue;
        const status = deadlineStatus(Date.parse(r.deadline), c.warning, false, now.getTime());
        if (status !== 'overdue' && status !== 'almost_overdue') continue;
        entries.push({
          user_id: p.id,
          name: fullName(p),
          course_id: c.id,
          course: c.title,
          deadline: r.deadline,
          status,
        });
      }
      entries.sort(
        (a, b) =>
          a.deadline.localeCompare(b.deadline) ||
          ru.compare(a.name, b.name) ||
          a.user_id - b.user_id ||
          a.course_id - b.course_id,
      );
      const group = (status: AttentionEntry['status']): AttentionGroup => {
        const mine = entries.filter((e) => e.status === status);
        return { total: mine.length, people: new Set(mine.map((e) => e.user_id)).size, first: mine.slice(0, lines) };
      };
      return { overdue: group('overdue'), almost_overdue: group('almost_overdue') };
    };

    const viewers = people.filter((p) => p.role !== 'learner' && !p.deleted);
    let named = 0;
    for (const lines of [0, 1, 3, 7, 50]) {
      // All viewers at once (the pass), the managers alone (no admin wants the digest this week), and
      // all but one of the two managers of a department (who had theirs: one of the team, not apart).
      const [sharing] = viewers.filter((v) => v.role === 'manager');
      for (const some of [
        viewers,
        viewers.filter((v) => v.role === 'manager'),
        viewers.filter((v) => v.id !== sharing?.id),
      ]) {
        const got = await analytics.digests(some, lines);
        for (const viewer of some) {
          const want = expectedFor(viewer, lines);
          expect(got.get(viewer.id), `viewer ${viewer.id} (${viewer.role}), ${lines} lines`).toEqual(want);
          named += want.overdue.first.length + want.almost_overdue.first.length;
        }
      }
    }
    // The sample has lines to check in both groups, and ties that only a name or a person decides.
    expect(named).toBeGreaterThan(100);
  });
});
