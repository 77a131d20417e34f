import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  clientAs,
  createCourse,
  createTestApp,
  createUser,
  dialectName,
  type Client,
  type TestContext,
} from '../../test/harness.js';

interface Entry {
  actor: string | null;
  source: string;
  action: string;
  subject: string;
  subject_id: number;
  subject_name: string;
  course: string | null;
}

/**
 * Whoever assigns a course, from whichever screen (the course's 'Назначение', the departments and
 * groups tabs, an employee's courses), the audit of people changes says who gave what to whom.
 */
describe(`course assignments in the audit of people changes (${dialectName})`, () => {
  let ctx: TestContext;
  let admin: Client;
  let author: Client;
  let course: number;
  let other: number;

  /** The assignment entries, oldest first, as [actor, action, subject, subject name, course]. */
  async function entries(): Promise<string[][]> {
    const items = (await admin.get('/api/admin/audit?per_page=200')).json().items as Entry[];
    return items
      .filter((e) => e.action === 'course_assigned' || e.action === 'course_unassigned')
      .reverse()
      .map((e) => {
        expect(e.source).toBe('manual');
        return [e.actor ?? '', e.action, e.subject, e.subject_name, e.course ?? ''];
      });
  }

  beforeEach(async () => {
    ctx = await createTestApp();
    admin = (await clientAs(ctx, 'admin', { first_name: 'Ольга', last_name: 'Админова' })).client;
    author = (await clientAs(ctx, 'author', { first_name: 'Елена', last_name: 'Васильева' })).client;
    course = await createCourse(ctx.db, 'Охрана труда');
    other = await createCourse(ctx.db, 'Переговоры');
  });
  afterEach(async () => {
    await ctx.close();
  });

  it('records every change made from the course, once, with the actor and the course name', async () => {
    const sales = (await admin.post('/api/admin/departments', { name: 'Продажи' })).json().result.item.id;
    const group = (await admin.post('/api/study-groups', { name: 'Новички' })).json().result.item.id;
    const vera = await createUser(ctx.db, { role: 'learner', first_name: 'Вера', last_name: 'Орлова' });
    const base = `/api/courses/${course}/assignment`;
    await author.post(`${base}/departments`, { department_ids: [sales] });
    // Already there: nothing new to record.
    await author.post(`${base}/departments`, { department_ids: [sales] });
    await author.post(`${base}/groups`, { group_ids: [group] });
    await author.post(`${base}/users`, { user_ids: [vera.id] });
    await author.delete(`${base}/users/${vera.id}`);
    await author.delete(`${base}/users/${vera.id}`);
    await author.delete(`${base}/groups/${group}`);
    await author.delete(`${base}/departments/${sales}`);
    const by = 'Васильева Елена';
    expect(await entries()).toEqual([
      [by, 'course_assigned', 'department', 'Продажи', 'Охрана труда'],
      [by, 'course_assigned', 'group', 'Новички', 'Охрана труда'],
      [by, 'course_assigned', 'user', 'Орлова Вера', 'Охрана труда'],
      [by, 'course_unassigned', 'user', 'Орлова Вера', 'Охрана труда'],
      [by, 'course_unassigned', 'group', 'Новички', 'Охрана труда'],
      [by, 'course_unassigned', 'department', 'Продажи', 'Охрана труда'],
    ]);
    const first = (await admin.get('/api/admin/audit?action=course_assigned&per_page=1')).json().items[0];
    expect(first).toMatchObject({ subject: 'user', subject_id: vera.id, at: ctx.clock.now().toISOString() });
  });

  it('records what the departments and groups tabs and an employee’s courses change', async () => {
    const by = 'Админова Ольга';
    const dep = (await admin.post('/api/admin/departments', { name: 'Склад', course_ids: [course] })).json().result.item
      .id;
    await admin.put(`/api/admin/departments/${dep}`, { name: 'Склад', course_ids: [course] });
    await admin.put(`/api/admin/departments/${dep}`, { name: 'Склад', course_ids: [other] });
    await admin.delete(`/api/admin/departments/${dep}`);
    const vera = await createUser(ctx.db, { role: 'learner', first_name: 'Вера', last_name: 'Орлова' });
    const group = (
      await admin.post('/api/study-groups', { name: 'Новички', user_ids: [vera.id], course_ids: [course] })
    ).json().result.item.id;
    // A change of members only is not a course assignment.
    await admin.put(`/api/study-groups/${group}`, { name: 'Новички', user_ids: [], course_ids: [course] });
    await admin.put(`/api/study-groups/${group}`, { name: 'Новички 2', user_ids: [], course_ids: [other] });
    await admin.delete(`/api/study-groups/${group}`);
    await admin.post('/api/admin/user-courses/attach', { user_id: vera.id, course_ids: [course, other] });
    await admin.post('/api/admin/user-courses/attach', { user_id: vera.id, course_ids: [course] });
    await admin.post('/api/admin/user-courses/detach', { user_id: vera.id, course_ids: [other, other] });
    expect(await entries()).toEqual([
      [by, 'course_assigned', 'department', 'Склад', 'Охрана труда'],
      [by, 'course_assigned', 'department', 'Склад', 'Переговоры'],
      [by, 'course_unassigned', 'department', 'Склад', 'Охрана труда'],
      [by, 'course_unassigned', 'department', 'Склад', 'Переговоры'],
      [by, 'course_assigned', 'group', 'Новички', 'Охрана труда'],
      [by, 'course_assigned', 'group', 'Новички 2', 'Переговоры'],
      [by, 'course_unassigned', 'group', 'Новички 2', 'Охрана труда'],
      [by, 'course_unassigned', 'group', 'Новички 2', 'Переговоры'],
      [by, 'course_assigned', 'user', 'Орлова Вера', 'Охрана труда'],
      [by, 'course_assigned', 'user', 'Орлова Вера', 'Переговоры'],
      [by, 'course_unassigned', 'user', 'Орлова Вера', 'Переговоры'],
    ]);
  });

  it('records the courses an employee is created with', async () => {
    const roles = (await admin.get('/api/admin/roles')).json().result.items as { id: number; code: string }[];
    const dep = (await admin.post('/api/admin/departments', { name: 'Склад' })).json().result.item.id;
    await admin.post('/api/admin/users', {
      first_name: 'Пётр',
      last_name: 'Седов',
      login: 'sedov@example.com',
      department_id: dep,
      role_id: roles.find((r) => r.code === 'learner')?.id,
      course_ids: [other],
    });
    expect(await entries()).toEqual([['Админова Ольга', 'course_assigned', 'user', 'Седов Пётр', 'Переговоры']]);
  });
});
