import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { clientAs, createTestApp, dialectName, type Client, type TestContext } from '../../test/harness.js';

describe(`the audit of people changes (${dialectName})`, () => {
  let ctx: TestContext;
  let admin: Client;
  let roles: Record<string, number>;
  let sales: number;
  let stock: number;

  beforeEach(async () => {
    ctx = await createTestApp();
    ({ client: admin } = await clientAs(ctx, 'admin', { first_name: 'Ольга', last_name: 'Админова' }));
    const items = (await admin.get('/api/admin/roles')).json().result.items as { id: number; code: string }[];
    roles = Object.fromEntries(items.map((r) => [r.code, r.id]));
    sales = (await admin.post('/api/admin/departments', { name: 'Продажи' })).json().result.item.id;
    stock = (await admin.post('/api/admin/departments', { name: 'Склад' })).json().result.item.id;
  });
  afterEach(async () => {
    await ctx.close();
  });

  const person = (extra: Record<string, unknown> = {}) => ({
    first_name: 'Вера',
    last_name: 'Орлова',
    login: 'vera@example.com',
    department_id: sales,
    role_id: roles.learner,
    position: 'Кассир',
    ...extra,
  });

  it('records who added, changed and deleted an employee in the employees tab, and what changed', async () => {
    const id = (await admin.post('/api/admin/users', { ...person(), course_ids: [] })).json().data.id;
    ctx.clock.advance(1000);
    await admin.put(`/api/admin/users/${id}`, person({ department_id: stock, role_id: roles.manager, position: '' }));
    ctx.clock.advance(1000);
    // Saved without a change: nothing to record.
    await admin.put(`/api/admin/users/${id}`, person({ department_id: stock, role_id: roles.manager, position: '' }));
    ctx.clock.advance(1000);
    await admin.delete(`/api/admin/users/${id}`);

    const page = (await admin.get('/api/admin/audit')).json();
    expect(page).toMatchObject({ result: { success: true }, total: 3, page: 1, per_page: 50 });
    const base = {
      actor: 'Админова Ольга',
      source: 'manual',
      subject: 'user',
      subject_id: id,
      subject_name: 'Орлова Вера',
      course: null,
    };
    expect(page.items).toEqual([
      { ...base, id: expect.any(Number), at: ctx.clock.now().toISOString(), action: 'user_deleted', changes: [] },
      {
        ...base,
        id: expect.any(Number),
        at: new Date(ctx.clock.now().getTime() - 2000).toISOString(),
        action: 'user_updated',
        changes: [
          { field: 'department', before: 'Продажи', after: 'Склад' },
          { field: 'position', before: 'Кассир', after: null },
          { field: 'role', before: 'Ученик', after: 'Руководитель' },
        ],
      },
      {
        ...base,
        id: expect.any(Number),
        at: new Date(ctx.clock.now().getTime() - 3000).toISOString(),
        action: 'user_created',
        changes: [
          { field: 'last_name', before: null, after: 'Орлова' },
          { field: 'first_name', before: null, after: 'Вера' },
          { field: 'email', before: null, after: 'vera@example.com' },
          { field: 'department', before: null, after: 'Продажи' },
          { field: 'position', before: null, after: 'Кассир' },
          { field: 'role', before: null, after: 'Ученик' },
        ],
      },
    ]);
  });

  it('filters by action, source and a name (of whom it concerns or who did it), a page at a time', async () => {
    for (const [i, name] of ['Орлова', 'Смирнова', 'Орловская'].entries()) {
      await admin.post('/api/admin/users', {
        ...person({ last_name: name, login: `p${i}@example.com` }),
        course_ids: [],
      });
    }
    const names = async (query: string) =>
      ((await admin.get(`/api/admin/audit${query}`)).json().items as { subject_name: string }[]).map(
        (e) => e.subject_name,
      );
    expect(await names('?search=ОРЛОВ')).toEqual(['Орловская Вера', 'Орлова Вера']);
    expect(await names('?search=админова')).toHaveLength(3);
    expect(await names('?action=user_deleted')).toEqual([]);
    expect(await names('?source=import')).toEqual([]);
    expect(await names('?action=user_created&per_page=2&page=2')).toEqual(['Орлова Вера']);
    // A search with LIKE's wildcards finds them literally.
    expect(await names('?search=%25')).toEqual([]);
    expect((await admin.get('/api/admin/audit?action=nonsense')).statusCode).toBe(422);
  });

  it('is for admins only', async () => {
    const { client: manager } = await clientAs(ctx, 'manager');
    expect((await manager.get('/api/admin/audit')).statusCode).toBe(403);
  });
});
