import ExcelJS from 'exceljs';
import type { Insertable } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { PeopleChangesTable } from '../../db/schema.js';
import { toJson } from '../../db/values.js';
import { clientAs, createTestApp, dialectName, Client, type TestContext } from '../../test/harness.js';
import { parseCsv, readXlsx, values, type ReadCell } from '../../test/spreadsheets.js';

const HEADER = ['Время', 'Кто', 'Источник', 'Действие', 'Кого касается', 'Курс', 'Изменения'];

describe(`the audit export (${dialectName})`, () => {
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

  /** Вера added at 09:00 UTC, moved to Склад a minute later, deleted a minute after that. */
  async function history() {
    const id = (await admin.post('/api/admin/users', { ...person(), course_ids: [] })).json().data.id;
    ctx.clock.advance(60_000);
    await admin.put(`/api/admin/users/${id}`, person({ department_id: stock, role_id: roles.manager, position: '' }));
    ctx.clock.advance(60_000);
    await admin.delete(`/api/admin/users/${id}`);
    return id;
  }

  /** Entries no form writes yet: the scheduled sync, and courses assigned to a department and a group. */
  async function recorded(rows: Partial<Insertable<PeopleChangesTable>>[]) {
    await ctx.db.kysely
      .insertInto('people_changes')
      .values(
        rows.map((r) => ({
          at: '2026-01-15T08:00:00.000Z',
          actor_id: null,
          actor_name: null,
          source: 'directory',
          batch_id: null,
          action: 'course_assigned',
          subject: 'department',
          subject_id: sales,
          subject_name: 'Продажи',
          course_id: null,
          course_name: null,
          field_changes: toJson([]),
          ...r,
        })),
      )
      .execute();
  }

  it('writes what the page shows as xlsx: a time cell in the company’s zone, every change in one cell', async () => {
    await history();
    const res = await admin.get('/api/admin/audit/export');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['content-disposition']).toBe(
      `attachment; filename="audit-2026-01-15.xlsx"; filename*=UTF-8''${encodeURIComponent('Журнал-изменений-2026-01-15.xlsx')}`,
    );
    const { name, rows } = await readXlsx(res.rawPayload);
    expect(name).toBe('Журнал изменений');
    expect(rows[0]?.map((c) => c.value)).toEqual(HEADER);
    // Newest first; no zone sent: the company's (Moscow), 09:02 UTC being 12:02 there.
    expect(values(rows.slice(1))).toEqual([
      [
        new Date(Date.UTC(2026, 0, 15, 12, 2)),
        'Админова Ольга',
        'Вручную',
        'Сотрудник удалён',
        'Орлова Вера',
        null,
        null,
      ],
      [
        new Date(Date.UTC(2026, 0, 15, 12, 1)),
        'Админова Ольга',
        'Вручную',
        'Сотрудник изменён',
        'Орлова Вера',
        null,
        'Отдел: Продажи → Склад; Должность: Кассир → —; Роль: Ученик → Руководитель',
      ],
      [
        new Date(Date.UTC(2026, 0, 15, 12, 0)),
        'Админова Ольга',
        'Вручную',
        'Сотрудник добавлен',
        'Орлова Вера',
        null,
        'Фамилия: Орлова; Имя: Вера; Email: vera@example.com; Отдел: Продажи; Должность: Кассир; Роль: Ученик',
      ],
    ]);
    const time = (rows[1] as ReadCell[])[0];
    expect([time?.type, time?.numFmt]).toEqual([ExcelJS.ValueType.Date, 'dd.mm.yyyy hh:mm']);
  });

  it('names the scheduled sync, a department or a group, and the course; CSV in the viewer’s zone', async () => {
    await recorded([
      { course_name: 'Охрана труда' },
      {
        at: '2026-01-15T08:30:00.000Z',
        actor_name: 'Админова Ольга',
        source: 'manual',
        action: 'course_unassigned',
        subject: 'group',
        subject_id: 7,
        subject_name: 'Новички',
        course_name: 'Переговоры',
      },
    ]);
    const res = await admin.get('/api/admin/audit/export?format=csv&tz=Asia/Novosibirsk');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toContain('filename="audit-2026-01-15.csv"');
    const rows = parseCsv(res.rawPayload.toString('utf8').slice(1));
    expect(rows).toEqual([
      HEADER,
      ['15.01.2026 15:30', 'Админова Ольга', 'Вручную', 'Назначение снято', 'Группа «Новички»', 'Переговоры', ''],
      [
        '15.01.2026 15:00',
        'Синхронизация по расписанию',
        'Синхронизация с каталогом',
        'Курс назначен',
        'Отдел «Продажи»',
        'Охрана труда',
        '',
      ],
    ]);
  });

  it('holds the page’s filters (action, source, a name of whom it concerns or who did it)', async () => {
    await history();
    await recorded([{ course_name: 'Охрана труда' }]);
    const actions = async (query: string) => {
      const res = await admin.get(`/api/admin/audit/export?${query}`);
      expect(res.statusCode).toBe(200);
      return values((await readXlsx(res.rawPayload)).rows.slice(1)).map((r) => r[3]);
    };
    expect(await actions('')).toHaveLength(4);
    expect(await actions('action=user_updated')).toEqual(['Сотрудник изменён']);
    expect(await actions('source=directory')).toEqual(['Курс назначен']);
    expect(await actions('source=manual&action=course_assigned')).toEqual([]);
    expect(await actions(`search=${encodeURIComponent('  ОРЛОВА ')}`)).toEqual([
      'Сотрудник удалён',
      'Сотрудник изменён',
      'Сотрудник добавлен',
    ]);
    expect(await actions(`search=${encodeURIComponent('админова')}&action=user_deleted`)).toEqual(['Сотрудник удалён']);
    expect(await actions(`search=${encodeURIComponent('продажи')}`)).toEqual(['Курс назначен']);
  });

  it('writes every page of a long journal, batch after batch, in the page’s order', async () => {
    // More than one batch (1000) of entries, several of them at one time: the order is the page's.
    const many = Array.from({ length: 1130 }, (_, i) => ({
      at: new Date(Date.UTC(2026, 0, 10, 0, Math.floor(i / 3))).toISOString(),
      source: 'import',
      action: 'user_updated',
      subject: 'user',
      subject_id: i + 1,
      subject_name: `Массов${String(i).padStart(4, '0')}`,
      actor_name: 'Админова Ольга',
      field_changes: toJson([{ field: 'position', before: null, after: `Должность ${i}` }]),
    }));
    for (let i = 0; i < many.length; i += 200) await recorded(many.slice(i, i + 200));

    const res = await admin.get('/api/admin/audit/export?source=import');
    const rows = (await readXlsx(res.rawPayload)).rows.slice(1);
    const shown: string[] = [];
    for (let page = 1; page <= 6; page++) {
      const body = (await admin.get(`/api/admin/audit?source=import&page=${page}&per_page=200`)).json();
      expect(body.total).toBe(1130);
      shown.push(...body.items.map((e: { subject_name: string }) => e.subject_name));
    }
    expect(rows.map((r) => r[4]?.value)).toEqual(shown);
    expect(shown[0]).toBe('Массов1129');
    expect(values(rows.slice(-1))).toEqual([
      [
        new Date(Date.UTC(2026, 0, 10, 3, 0)),
        'Админова Ольга',
        'Импорт из файла',
        'Сотрудник изменён',
        'Массов0000',
        null,
        'Должность: — → Должность 0',
      ],
    ]);
  });

  it('is for admins only and answers a bad query with 422 and a Russian message', async () => {
    expect((await new Client(ctx.app).get('/api/admin/audit/export')).statusCode).toBe(401);
    const { client: manager } = await clientAs(ctx, 'manager');
    const denied = await manager.get('/api/admin/audit/export');
    expect([denied.statusCode, denied.json().result.message]).toEqual([403, 'Доступ запрещен']);
    for (const query of ['format=pdf', 'action=nonsense', 'source=ldap', 'tz=Mars/Base', `search=${'я'.repeat(101)}`]) {
      const res = await admin.get(`/api/admin/audit/export?${query}`);
      expect([query, res.statusCode]).toEqual([query, 422]);
      expect(res.json().result.message).toMatch(/[а-яё]/i);
    }
  });
});
