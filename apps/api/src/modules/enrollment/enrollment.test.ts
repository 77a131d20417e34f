import { random } from '../../test/random.js';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  clientAs,
  createCourse,
  createTestApp,
  createUser,
  dialectName,
  roleId,
  type Client,
  type TestContext,
} from '../../test/harness.js';
import { UnitOfWork } from '../../db/unitOfWork.js';
import { HOUR } from '../../platform/clock.js';
import { EnrollmentRepository } from './repository.js';

describe(`enrollment at scale (${dialectName})`, () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestApp();
  });
  afterAll(async () => {
    await ctx.close();
  });

  it('takes any number of user ids (beyond the databases’ parameter limits)', async () => {
    const user = await createUser(ctx.db, { role: 'learner' });
    const course = await createCourse(ctx.db);
    await ctx.db.kysely
      .insertInto('user_courses')
      .values({ user_id: user.id, course_id: course, assigned_at: '2026-01-01T00:00:00.000Z' })
      .execute();
    const ids = [...Array.from({ length: 25_000 }, (_, i) => 1_000_000 + i), user.id];
    const repo = new EnrollmentRepository(new UnitOfWork(ctx.db.kysely, ctx.db.kind));
    await repo.refresh({ userIds: ids });
    const rows = await repo.list({ userIds: ids });
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ user_id: user.id, course_id: course });
    expect(Date.parse(rows[0]?.enrolled_at ?? '')).toBe(Date.parse('2026-01-01T00:00:00.000Z'));
  });
});

describe(`maintained enrollments equal the sources after any sequence of changes (${dialectName})`, () => {
  let ctx: TestContext;
  let admin: Client;
  let repo: EnrollmentRepository;
  beforeEach(async () => {
    ctx = await createTestApp();
    admin = (await clientAs(ctx, 'admin')).client;
    repo = new EnrollmentRepository(new UnitOfWork(ctx.db.kysely, ctx.db.kind));
  });
  afterEach(async () => {
    await ctx.close();
  });

  async function expectExact(step: string) {
    const stored = await repo.list();
    const derived = (await repo.derive()).map(({ user_id, course_id, enrolled_at }) => ({
      user_id,
      course_id,
      enrolled_at,
    }));
    const norm = (rows: { user_id: number; course_id: number; enrolled_at: string }[]) =>
      rows.map((r) => `${r.user_id}:${r.course_id}@${Date.parse(r.enrolled_at)}`);
    expect(norm(stored), step).toEqual(norm(derived));
    const counts = await repo.countByCourse([...new Set(derived.map((r) => r.course_id))]);
    const expected = new Map<number, number>();
    for (const r of derived) expected.set(r.course_id, (expected.get(r.course_id) ?? 0) + 1);
    expect([...counts].sort(), step).toEqual([...expected].sort());
  }

  it('through every kind of change, in a long random sequence', async () => {
    const rnd = random(20261123);
    const learnerRole = await roleId(ctx.db, 'learner');
    const courses: number[] = [];
    for (let i = 0; i < 6; i++) courses.push(await createCourse(ctx.db, `Курс ${i}`));
    const departments: number[] = [];
    const groups: number[] = [];
    const users: number[] = [];
    let made = 0;
    const ok = async (what: string, res: { statusCode: number; body: string }) => {
      expect([what, res.statusCode < 300 ? 'ok' : res.body]).toEqual([what, 'ok']);
    };
    const userFields = (id: number, department: number) => ({
      first_name: 'Имя',
      last_name: `Фамилия ${id}`,
      login: `u${id}@example.com`,
      department_id: department,
      role_id: learnerRole,
      position: null,
    });
    const userDepartment = new Map<number, number>();

    for (let step = 0; step < 70; step++) {
      // Time passes between changes (enrolment times differ), within the session's idle limit.
      ctx.clock.advance(rnd.int(5) * HOUR + 1000);
      const op = rnd.int(12);
      let what = '';
      if (op === 0 || departments.length === 0) {
        what = 'department created';
        const res = await admin.post('/api/admin/departments', {
          name: `Отдел ${made++}`,
          course_ids: rnd.some(courses),
        });
        await ok(what, res);
        departments.push(res.json().result.item.id);
      } else if (op === 1 || users.length < 3) {
        what = 'user created';
        const id = ++made;
        const department = rnd.pick(departments) as number;
        const res = await admin.post('/api/admin/users', {
          ...userFields(id, department),
          course_ids: rnd.some(courses),
        });
        await ok(what, res);
        users.push(res.json().data.id);
        userDepartment.set(res.json().data.id, department);
      } else if (op === 2) {
        what = 'department courses changed';
        const id = rnd.pick(departments) as number;
        await ok(
          what,
          await admin.put(`/api/admin/departments/${id}`, { name: `Отдел ${id}`, course_ids: rnd.some(courses) }),
        );
      } else if (op === 3) {
        what = 'user moved to another department';
        const user = rnd.pick(users) as number;
        const department = rnd.pick(departments) as number;
        await ok(what, await admin.put(`/api/admin/users/${user}`, userFields(user, department)));
        userDepartment.set(user, department);
      } else if (op === 4) {
        what = 'group created or changed';
        const body = { name: `Группа ${made++}`, user_ids: rnd.some(users), course_ids: rnd.some(courses) };
        const id = rnd.pick(groups);
        if (id === undefined || rnd.int(2) === 0) {
          const res = await admin.post('/api/study-groups', body);
          await ok(what, res);
          groups.push(res.json().result.item.id);
        } else await ok(what, await admin.put(`/api/study-groups/${id}`, body));
      } else if (op === 5) {
        what = 'direct courses attached';
        await ok(
          what,
          await admin.post('/api/admin/user-courses/attach', {
            user_id: rnd.pick(users),
            course_ids: rnd.some(courses),
          }),
        );
      } else if (op === 6) {
        what = 'direct courses detached';
        await ok(
          what,
          await admin.post('/api/admin/user-courses/detach', {
            user_id: rnd.pick(users),
            course_ids: rnd.some(courses),
          }),
        );
      } else if (op === 7 && groups.length > 0) {
        what = 'group deleted';
        const id = groups.splice(rnd.int(groups.length), 1)[0];
        await ok(what, await admin.delete(`/api/study-groups/${id}`));
      } else if (op === 8 && users.length > 3) {
        what = 'user deleted';
        const id = users.splice(rnd.int(users.length), 1)[0];
        await ok(what, await admin.delete(`/api/admin/users/${id}`));
      } else if (op === 9 && departments.length > 1 && rnd.int(3) === 0) {
        what = 'department deleted';
        const id = departments.splice(rnd.int(departments.length), 1)[0] as number;
        // Its employees move first (a department with people may be refused): the usual admin path.
        for (const [user, department] of userDepartment)
          if (department === id && users.includes(user)) {
            const to = departments[0] as number;
            await ok('user moved', await admin.put(`/api/admin/users/${user}`, userFields(user, to)));
            userDepartment.set(user, to);
          }
        await ok(what, await admin.delete(`/api/admin/departments/${id}`));
      } else if (op === 9 && courses.length > 3) {
        what = 'course deleted';
        const id = courses.splice(rnd.int(courses.length), 1)[0];
        await ok(what, await admin.delete(`/api/admin/courses/${id}`));
      } else if (op === 10) {
        // The course's own 'Назначение': one course given to holders of each kind in place.
        what = 'course given from the course';
        const base = `/api/courses/${rnd.pick(courses)}/assignment`;
        const [departmentIds, groupIds, userIds] = [rnd.some(departments), rnd.some(groups), rnd.some(users)];
        if (departmentIds.length > 0)
          await ok(what, await admin.post(`${base}/departments`, { department_ids: departmentIds }));
        if (groupIds.length > 0) await ok(what, await admin.post(`${base}/groups`, { group_ids: groupIds }));
        if (userIds.length > 0) await ok(what, await admin.post(`${base}/users`, { user_ids: userIds }));
      } else if (op === 11) {
        what = 'course taken from the course';
        const base = `/api/courses/${rnd.pick(courses)}/assignment`;
        await ok(what, await admin.delete(`${base}/departments/${rnd.pick(departments)}`));
        if (groups.length > 0) await ok(what, await admin.delete(`${base}/groups/${rnd.pick(groups)}`));
        await ok(what, await admin.delete(`${base}/users/${rnd.pick(users)}`));
      } else continue;
      await expectExact(`step ${step}: ${what}`);
    }
    expect((await repo.list()).length).toBeGreaterThan(0);
  });
});
