import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { clientAs, createTestApp, createUser, dialectName, type Client, type TestContext } from '../../test/harness.js';
import { multipart } from '../../test/multipart.js';
import { xlsxOf } from '../../test/spreadsheets.js';

const HEADER = ['Фамилия', 'Имя', 'Email', 'Отдел', 'Email руководителя'];

/** Line managers (issue 32): named by address in an import, the edit form, and shown on the cards. */
describe(`line managers (${dialectName})`, () => {
  let ctx: TestContext;
  let admin: Client;
  let sales: number;

  beforeEach(async () => {
    ctx = await createTestApp();
    ({ client: admin } = await clientAs(ctx, 'admin', {
      email: 'admin@example.com',
      first_name: 'Ольга',
      last_name: 'Админова',
    }));
    sales = (await admin.post('/api/admin/departments', { name: 'Продажи', course_ids: [] })).json().result.item.id;
  });
  afterEach(async () => {
    await ctx.close();
  });

  const upload = async (rows: string[][], header = HEADER) => {
    const data = await xlsxOf([header, ...rows]);
    const { payload, headers } = multipart(
      {},
      { field: 'file', name: 'люди.xlsx', type: 'application/octet-stream', data },
    );
    const answer = await admin.request('POST', '/api/admin/people-import', payload, headers);
    expect(answer.statusCode).toBe(201);
    return answer.json().data as { id: number; counts: Record<string, number> };
  };
  const rowsOf = async (id: number) =>
    (await admin.get(`/api/admin/people-import/${id}/rows?per_page=200`)).json().items;
  const managers = async () =>
    Object.fromEntries(
      (
        await ctx.db.kysely
          .selectFrom('users')
          .leftJoin('users as m', 'm.id', 'users.manager_id')
          .select(['users.email', 'm.email as manager'])
          .where('users.deleted_at', 'is', null)
          .execute()
      ).map((r) => [r.email, r.manager]),
    );

  it('an import names managers by address: a person of the school or a row of the same file, further down too', async () => {
    await createUser(ctx.db, { role: 'manager', email: 'boss@example.com', department_id: sales });
    const batch = await upload([
      ['Орлова', 'Вера', 'vera@example.com', 'Продажи', 'lead@example.com'],
      ['Лидов', 'Лев', 'lead@example.com', 'Продажи', 'BOSS@example.com'],
      ['Петров', 'Пётр', 'petr@example.com', 'Продажи', ''],
    ]);
    expect(batch.counts).toMatchObject({ create: 3, error: 0 });
    const rows = await rowsOf(batch.id);
    expect(rows[0].changes).toContainEqual({ field: 'manager', before: null, after: 'lead@example.com' });
    expect(rows[2].changes.map((c: { field: string }) => c.field)).not.toContain('manager');

    expect((await admin.post(`/api/admin/people-import/${batch.id}/apply`)).statusCode).toBe(200);
    expect(await managers()).toMatchObject({
      'vera@example.com': 'lead@example.com',
      'lead@example.com': 'boss@example.com',
      'petr@example.com': null,
    });

    // The same file again changes nothing; a file without the column leaves managers as they are.
    const again = await upload([
      ['Орлова', 'Вера', 'vera@example.com', 'Продажи', 'lead@example.com'],
      ['Лидов', 'Лев', 'lead@example.com', 'Продажи', 'boss@example.com'],
      ['Петров', 'Пётр', 'petr@example.com', 'Продажи', ''],
    ]);
    expect(again.counts).toMatchObject({ create: 0, update: 0, unchanged: 3 });
    const without = await upload([['Орлова', 'Вера', 'vera@example.com', 'Продажи']], HEADER.slice(0, 4));
    expect(without.counts).toMatchObject({ unchanged: 1 });

    // Moving Вера to another manager, and clearing Лев's, is an update of that field only.
    const moved = await upload([
      ['Орлова', 'Вера', 'vera@example.com', 'Продажи', 'boss@example.com'],
      ['Лидов', 'Лев', 'lead@example.com', 'Продажи', ''],
    ]);
    expect(await rowsOf(moved.id)).toMatchObject([
      { action: 'update', changes: [{ field: 'manager', before: 'lead@example.com', after: 'boss@example.com' }] },
      { action: 'update', changes: [{ field: 'manager', before: 'boss@example.com', after: null }] },
    ]);
    await admin.post(`/api/admin/people-import/${moved.id}/apply`);
    expect(await managers()).toMatchObject({ 'vera@example.com': 'boss@example.com', 'lead@example.com': null });
    const audit = (await admin.get('/api/admin/audit?per_page=3')).json().items;
    expect(audit).toContainEqual(
      expect.objectContaining({
        subject_name: 'Орлова Вера',
        changes: [{ field: 'manager', before: 'lead@example.com', after: 'boss@example.com' }],
      }),
    );
  });

  it('refuses an unknown or bad manager, oneself, and a manager whose own row fails', async () => {
    const batch = await upload([
      ['Орлова', 'Вера', 'vera@example.com', 'Продажи', 'nobody@example.com'],
      ['Лидов', 'Лев', 'lead@example.com', 'Склад', ''],
      ['Петров', 'Пётр', 'petr@example.com', 'Продажи', 'lead@example.com'],
      ['Сидоров', 'Семён', 'semen@example.com', 'Продажи', 'semen@example.com'],
      ['Иванов', 'Иван', 'ivan@example.com', 'Продажи', 'Иванов И. И.'],
      ['Кузнецов', 'Кирилл', 'kirill@example.com', 'Продажи', 'petr@example.com'],
    ]);
    expect(batch.counts).toMatchObject({ create: 0, error: 6 });
    expect((await rowsOf(batch.id)).map((r: { errors: string[] }) => r.errors)).toEqual([
      ['Руководитель nobody@example.com не найден ни среди сотрудников, ни в файле'],
      ['Отдел «Склад» не найден. Отметьте «Создавать отделы» или добавьте отдел в настройках школы'],
      // Лев's row fails, so Пётр's manager would not exist, and Кирилл's then neither.
      ['Руководитель lead@example.com не найден ни среди сотрудников, ни в файле'],
      ['Сотрудник не может быть своим руководителем'],
      ['Некорректный email руководителя «Иванов И. И.»'],
      ['Руководитель petr@example.com не найден ни среди сотрудников, ни в файле'],
    ]);
  });

  it('the edit form sets, clears and keeps the manager; the cards show them', async () => {
    const boss = await createUser(ctx.db, {
      role: 'manager',
      email: 'boss@example.com',
      first_name: 'Борис',
      last_name: 'Главный',
      department_id: sales,
    });
    const vera = await createUser(ctx.db, {
      role: 'learner',
      email: 'vera@example.com',
      first_name: 'Вера',
      last_name: 'Орлова',
      department_id: sales,
    });
    const roles = (await admin.get('/api/admin/roles')).json().result.items as { id: number; code: string }[];
    const learner = roles.find((r) => r.code === 'learner')?.id;
    const form = (extra: Record<string, unknown>) => ({
      first_name: 'Вера',
      last_name: 'Орлова',
      login: 'vera@example.com',
      department_id: sales,
      role_id: learner,
      ...extra,
    });
    const put = (extra: Record<string, unknown>) => admin.put(`/api/admin/users/${vera.id}`, form(extra));

    expect((await put({ manager_email: 'Boss@Example.com' })).statusCode).toBe(200);
    const detail = (await admin.get(`/api/admin/users/${vera.id}`)).json().result.data;
    expect(detail.manager).toEqual({ id: boss.id, name: 'Главный Борис', email: 'boss@example.com' });
    const card = (await admin.get(`/api/analytics/users/${vera.id}`)).json().result.user;
    expect(card.manager).toBe('Главный Борис');

    // Not given: left as it is (the form of an older client).
    await put({});
    expect((await managers())['vera@example.com']).toBe('boss@example.com');

    for (const [email, message] of [
      ['nobody@example.com', 'Руководитель с таким email не найден среди сотрудников'],
      ['vera@example.com', 'Сотрудник не может быть своим руководителем'],
      ['не почта', 'Некорректный email руководителя'],
    ]) {
      const refused = await put({ manager_email: email });
      expect(refused.statusCode).toBe(422);
      expect(refused.json().result.message).toBe(message);
    }
    expect((await managers())['vera@example.com']).toBe('boss@example.com');

    // A deleted manager is nobody's.
    await admin.delete(`/api/admin/users/${boss.id}`);
    expect((await admin.get(`/api/admin/users/${vera.id}`)).json().result.data.manager).toBeNull();

    await put({ manager_email: '' });
    expect((await managers())['vera@example.com']).toBeNull();
  });
});
