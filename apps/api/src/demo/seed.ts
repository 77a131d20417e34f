import type { Kysely } from 'kysely';
import type { Config } from '../config.js';
import type { Database } from '../db/schema.js';
import { learningStatesOver } from '../modules/progress/standalone.js';
import type { Clock } from '../platform/clock.js';
import { hashPassword } from '../platform/passwords.js';
import { DEPARTMENT_COURSES, GROUP_COURSES, MARKER_LOCAL, USER_COURSES, USERS } from './content.js';
import { seedCourses, writeFiles } from './seedCourses.js';
import { createFileStore } from '../platform/fileStore/fromConfig.js';
import { demoTimes } from './seedKit.js';
import { seedLearning } from './seedLearning.js';
import { anyExists, demoEmail, seedPeople, type DemoAccount } from './seedPeople.js';

/** The password of every demo account (documented; the demo is for trying the product out). */
export const DEMO_PASSWORD = 'Demo-2026!';

export interface DemoResult {
  /** false: the demo was already there and nothing was changed. */
  created: boolean;
  /** The demo accounts that sign in with `password`. */
  users: DemoAccount[];
  password: string;
}

const ROLE_ORDER: Record<string, number> = { admin: 0, author: 1, manager: 2, learner: 3 };

/**
 * Loads the demo organisation (departments, people, a study group, the course catalogue with
 * lessons, tests and files, assignments and learning progress), with times relative to the clock.
 * Idempotent: when any demo account (e.g. learner@<domain>) already exists, nothing is changed.
 * The database part is one transaction; the files are written to `storage/demo/` of the file store first
 * (rewriting them is harmless), so the rows never point at a missing file.
 */
export async function loadDemo(db: Kysely<Database>, config: Config, clock: Clock): Promise<DemoResult> {
  const emails = USERS.map((u) => demoEmail(config, u.local));
  if (await anyExists(db, emails)) {
    return { created: false, users: await existingDemoUsers(db, emails), password: DEMO_PASSWORD };
  }

  const times = demoTimes(clock.now().getTime());
  const { ago } = times;

  // Slow work outside the transaction: password hashes (one salt each) and the files on disk.
  const hashes = await Promise.all([...USERS, null].map(() => hashPassword(DEMO_PASSWORD)));
  const stored = await writeFiles(createFileStore(config));

  return db.transaction().execute(async (trx): Promise<DemoResult> => {
    if (await anyExists(trx, emails)) {
      return { created: false, users: await existingDemoUsers(trx, emails), password: DEMO_PASSWORD };
    }
    const { created, deptId, userId, group } = await seedPeople(trx, config, times, hashes);
    const courses = await seedCourses(trx, times, stored, userId('author'));
    const { courseId } = courses;

    // ── enrollment ──
    await trx
      .insertInto('department_courses')
      .values(
        DEPARTMENT_COURSES.map((a) => ({
          department_id: deptId(a.dept),
          course_id: courseId(a.course),
          assigned_at: ago(a.daysAgo),
        })),
      )
      .execute();
    await trx
      .insertInto('group_courses')
      .values(
        GROUP_COURSES.map((a) => ({ group_id: group.id, course_id: courseId(a.course), assigned_at: ago(a.daysAgo) })),
      )
      .execute();
    await trx
      .insertInto('user_courses')
      .values(
        USER_COURSES.map((a) => ({
          user_id: userId(a.user),
          course_id: courseId(a.course),
          assigned_at: ago(a.daysAgo),
        })),
      )
      .execute();
    const kept = learningStatesOver({ db: trx }, clock);
    await kept.enrollment.refresh();

    await seedLearning(trx, times, userId, courses);

    await kept.states.rebuild();
    created.sort((a, b) => (ROLE_ORDER[a.role] ?? 9) - (ROLE_ORDER[b.role] ?? 9));
    return { created: true, users: created, password: DEMO_PASSWORD };
  });
}

async function existingDemoUsers(db: Kysely<Database>, emails: string[]): Promise<DemoAccount[]> {
  const rows = await db
    .selectFrom('users')
    .innerJoin('roles', 'roles.id', 'users.role_id')
    .select(['users.email', 'roles.code'])
    .where('users.email', 'in', emails)
    .execute();
  const order = new Map(emails.map((e, i) => [e, i]));
  return rows
    .map((r) => ({ email: r.email, role: r.code }))
    .sort((a, b) => (order.get(a.email) ?? 0) - (order.get(b.email) ?? 0));
}

export { MARKER_LOCAL };
