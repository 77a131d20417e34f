import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCourse, createTestApp, createUser, dialectName, type TestContext } from '../../test/harness.js';
import { UnitOfWork } from '../../db/unitOfWork.js';
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
    const rows = await new EnrollmentRepository(new UnitOfWork(ctx.db.kysely, ctx.db.kind)).list({ userIds: ids });
    expect(rows).toEqual([{ user_id: user.id, course_id: course, enrolled_at: '2026-01-01T00:00:00.000Z' }]);
  });
});
