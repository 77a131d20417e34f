import { analyticsOverviewResponse, type AnalyticsEmployee } from '@lms/contract';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { UnitOfWork } from '../../db/unitOfWork.js';
import { DAY, HOUR } from '../../platform/clock.js';
import { PeopleTime } from '../../platform/peopleTime.js';
import { storageUrl } from '../../platform/storageUrl.js';
import {
  clientAs,
  createCourse,
  createDepartment,
  createModuleWith,
  createTestApp,
  createUser,
  dialectName,
  type TestContext,
} from '../../test/harness.js';
import { random } from '../../test/random.js';
import { CoursesRepository } from '../courses/repository.js';
import type { CourseState, DeadlineStatus } from '../progress/engine.js';
import type { LearningEngine } from '../progress/service.js';
import { learningStatesOver } from '../progress/standalone.js';
import { UsersRepository, type UserRecord } from '../users/repository.js';
import { displayDate } from './service.js';

const URGENCY: Record<DeadlineStatus, number> = { overdue: 0, almost_overdue: 1, in_order: 2 };

describe(`analytics overview, streamed, equals the rules over the engine's full recomputation (${dialectName})`, () => {
  let ctx: TestContext;
  let engine: LearningEngine;
  let users: UsersRepository;
  let courses: CoursesRepository;
  beforeEach(async () => {
    ctx = await createTestApp();
    const uow = new UnitOfWork(ctx.db.kysely, ctx.db.kind);
    const kept = learningStatesOver(uow, ctx.clock);
    users = new UsersRepository(uow);
    courses = new CoursesRepository(uow);
    engine = kept.engine;
  });
  afterEach(async () => {
    await ctx.close();
  });

  /**
   * The overview as docs/rules.md §Analytics and the screen define it, computed the long way: every
   * enrolled course of every team member from the records, the most urgent one per employee, the
   * groups ordered by deadline as `localeCompare` orders ISO times, then by name in Russian order,
   * then in the team's order.
   */
  async function expected(team: UserRecord[]) {
    const states = await engine.states(
      team.map((u) => u.id),
      undefined,
      { enrolledOnly: true },
    );
    const byUser = new Map<number, CourseState[]>();
    for (const [key, s] of states) {
      const userId = Number(key.split(':')[0]);
      byUser.set(userId, [...(byUser.get(userId) ?? []), s]);
    }
    const titles = new Map((await courses.titles()).map((c) => [c.id, c.title]));
    const rank = (s: CourseState) => URGENCY[s.deadline_status ?? 'in_order'];
    const time = (s: CourseState) => (s.deadline ? Date.parse(s.deadline) : Number.POSITIVE_INFINITY);
    const analytic: Record<DeadlineStatus, AnalyticsEmployee[]> = { overdue: [], almost_overdue: [], in_order: [] };
    for (const user of team) {
      const state = [...(byUser.get(user.id) ?? [])].sort(
        (a, b) => rank(a) - rank(b) || time(a) - time(b) || a.course_id - b.course_id,
      )[0];
      analytic[state?.deadline_status ?? 'in_order'].push({
        id: user.id,
        name: `${user.last_name} ${user.first_name}`.trim(),
        first_name: user.first_name,
        last_name: user.last_name,
        email: user.email,
        department: user.department_name,
        photo: storageUrl(user.photo_path),
        deadline: displayDate(state?.deadline ?? null, new PeopleTime('Europe/Moscow')),
        deadline_at: state?.deadline ?? null,
        percent: state?.progress ?? 0,
        last_activity: user.last_activity_at,
        course: state ? { id: state.course_id, name: titles.get(state.course_id) ?? '' } : null,
      });
    }
    for (const list of Object.values(analytic))
      list.sort(
        (a, b) => (a.deadline_at ?? '~').localeCompare(b.deadline_at ?? '~') || a.name.localeCompare(b.name, 'ru'),
      );
    return { result: { success: true, analytic } };
  }

  it('for an admin (everyone) and a manager (their department but themselves), as time passes and learners work', async () => {
    const rnd = random(15_04);
    const k = ctx.db.kysely;
    const sales = await createDepartment(ctx.db, 'Продажи');
    const support = await createDepartment(ctx.db, 'Поддержка');
    const { client: admin, user: adminUser } = await clientAs(ctx, 'admin');
    const { client: manager, user: managerUser } = await clientAs(ctx, 'manager', {
      department_id: sales,
      first_name: 'Мария',
      last_name: 'Андреева',
    });
    // Names that only the Russian order sorts right (ё, case), namesakes (the team's order decides).
    const names = [
      ['Ёлкина', 'Анна'],
      ['Елкина', 'Анна'],
      ['елизаров', 'Пётр'],
      ['Жуков', 'Борис'],
      ['Жуков', 'Борис'],
      ['Abramov', 'Ivan'],
      ['Яковлева', 'Вера'],
      ['Иванов', ''],
      ['Борисов', 'Глеб'],
    ];
    const learners: number[] = [];
    for (const [i, [last_name, first_name]] of names.entries()) {
      const user = await createUser(ctx.db, {
        role: 'learner',
        department_id: i % 3 === 2 ? support : sales,
        last_name,
        first_name,
      });
      learners.push(user.id);
    }
    await k
      .updateTable('users')
      .set({ photo_path: 'avatars/a.png', last_activity_at: '2026-01-10T08:00:00.000Z' })
      .where('id', '=', learners[0] ?? 0)
      .execute();
    // A deleted user is in nobody's overview.
    const gone = await createUser(ctx.db, { role: 'learner', department_id: sales, last_name: 'Удалённый' });
    await k.updateTable('users').set({ deleted_at: '2026-01-10T00:00:00.000Z' }).where('id', '=', gone.id).execute();

    const made: { id: number; lessons: number[] }[] = [];
    for (let c = 0; c < 5; c++) {
      const id = await createCourse(ctx.db, `Курс ${c}`, { is_published: c !== 4 });
      await k
        .updateTable('courses')
        .set({ has_deadline: c !== 3, deadline_value: 2 + c * 2, deadline_warning_days: c % 3 })
        .where('id', '=', id)
        .execute();
      made.push({ id, lessons: (await createModuleWith(ctx.db, id, { lessons: 3 })).lessonIds });
    }
    const kept = learningStatesOver({ db: k }, ctx.clock).states;
    const seen = new Set<string>();
    const check = async (step: string) => {
      const everyone = await admin.get('/api/analytics/users');
      expect(everyone.statusCode, step).toBe(200);
      expect(everyone.headers['content-type'], step).toBe('application/json; charset=utf-8');
      const body: unknown = everyone.json();
      // The contract's shape, and nothing beyond it (parsing drops unknown keys).
      expect(analyticsOverviewResponse.parse(body), step).toEqual(body);
      const want = await expected(await users.list());
      expect(body, step).toEqual(want);
      for (const [group, list] of Object.entries(want.result.analytic)) if (list.length > 0) seen.add(group);
      const team = (await users.inDepartment(sales)).filter((u) => u.id !== managerUser.id);
      expect((await manager.get('/api/analytics/users')).json(), `${step}: manager`).toEqual(await expected(team));
    };

    await check('nobody enrolled');
    for (let step = 0; step < 12; step++) {
      for (const user of rnd.some(learners)) {
        const course = rnd.pick(made);
        await admin.post('/api/admin/user-courses/attach', { user_id: user, course_ids: [course.id] });
        if (rnd.chance(0.5)) {
          const now = ctx.clock.now().getTime();
          await k
            .insertInto('lesson_progress')
            .values({
              user_id: user,
              lesson_id: rnd.pick(course.lessons),
              started_at: new Date(now - HOUR).toISOString(),
              completed_at: rnd.chance(0.7) ? new Date(now).toISOString() : null,
            })
            .execute();
          await kept.refresh({ userIds: [user] });
        }
      }
      ctx.clock.advance(rnd.chance(0.5) ? DAY : rnd.int(20) * HOUR + 1);
      // Sessions end after 12 idle hours of the test clock.
      await admin.signIn(adminUser.email);
      await manager.signIn(managerUser.email);
      await check(`step ${step}`);
    }
    expect([...seen].sort()).toEqual(['almost_overdue', 'in_order', 'overdue']);
  }, 60_000);
});
