import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DAY } from '../../platform/clock.js';
import {
  Client,
  clientAs,
  createCourse,
  createDepartment,
  createModuleWith,
  createTestApp,
  dialectName,
  type TestContext,
} from '../../test/harness.js';
import { pdfText } from '../../test/pdfText.js';

/** Certificates through the API (docs/rules.md §Certificates). */
describe(`certificates (${dialectName})`, () => {
  let ctx: TestContext;
  let admin: Client;
  let author: Client;
  let learner: Client;
  let learnerUser: { id: number; email: string; password: string };
  let course: number;
  let lessonId: number;
  let department: number;

  beforeEach(async () => {
    ctx = await createTestApp();
    department = await createDepartment(ctx.db, 'Склад');
    admin = (await clientAs(ctx, 'admin')).client;
    author = (await clientAs(ctx, 'author')).client;
    const l = await clientAs(ctx, 'learner', { first_name: 'Мария', last_name: 'Иванова', department_id: department });
    learner = l.client;
    learnerUser = l.user;
    course = await createCourse(ctx.db, 'Охрана труда', { is_published: true });
    await ctx.db.kysely
      .updateTable('courses')
      .set({ has_recurrence: true, recurrence_value: 365 })
      .where('id', '=', course)
      .execute();
    ({
      lessonIds: [lessonId = 0],
    } = await createModuleWith(ctx.db, course, { lessons: 1, name: 'Модуль' }));
    await admin.post('/api/admin/user-courses/attach', { user_id: learnerUser.id, course_ids: [course] });
  });
  afterEach(async () => {
    await ctx.close();
  });

  const enable = (extra: Record<string, unknown> = {}) =>
    author.put(`/api/courses/${course}/certificate`, {
      enabled: true,
      title: 'Удостоверение',
      signer_name: 'Петров П. П.',
      signer_position: 'Директор по персоналу',
      ...extra,
    });
  const mine = async (client = learner) => (await client.get('/api/my/certificates')).json().result.items;

  it('is issued once per cycle when the course completes, and anew in a re-certification cycle', async () => {
    expect((await author.get(`/api/courses/${course}/certificate`)).json().result.settings).toEqual({
      enabled: false,
      title: 'Сертификат',
      signer_name: null,
      signer_position: null,
      logo: null,
    });
    const saved = await enable();
    expect(saved.json().result).toMatchObject({ message: 'Настройки сертификата сохранены', issued: 0 });
    expect(await mine()).toEqual([]);

    await learner.post(`/api/lessons/${lessonId}/complete`);
    await learner.post(`/api/lessons/${lessonId}/complete`);
    const [first, ...none] = await mine();
    expect(none).toEqual([]);
    expect(first).toMatchObject({
      title: 'Удостоверение',
      learner_name: 'Иванова Мария',
      course_title: 'Охрана труда',
      status: 'valid',
      department: 'Склад',
      revoked_at: null,
    });
    expect(first.number).toMatch(/^C-[2-9A-HJ-NP-Z]{4}-[2-9A-HJ-NP-Z]{4}-[2-9A-HJ-NP-Z]{4}$/);
    expect(Date.parse(first.valid_until) - Date.parse(first.completed_at)).toBe(365 * DAY);

    // A year on: expired; the new cycle's completion issues a second one.
    ctx.clock.advance(366 * DAY);
    await learner.signIn(learnerUser.email, learnerUser.password);
    expect((await mine())[0]).toMatchObject({ number: first.number, status: 'expired' });
    await learner.post(`/api/lessons/${lessonId}/complete`);
    const after = await mine();
    expect(after.map((c: { status: string }) => c.status)).toEqual(['valid', 'expired']);
    expect(after[0].number).not.toBe(first.number);
  });

  it('switching certificates on issues them to whoever already completed the current cycle', async () => {
    await learner.post(`/api/lessons/${lessonId}/complete`);
    expect((await enable()).json().result.issued).toBe(1);
    expect(await mine()).toHaveLength(1);
    // Saved again (a new signer): nothing issued twice.
    expect((await enable({ signer_name: 'Сидоров С. С.' })).json().result.issued).toBe(0);
    expect(await mine()).toHaveLength(1);
  });

  it('anyone checks a number; a revoked one says why; nothing else about the person is told', async () => {
    await enable();
    await learner.post(`/api/lessons/${lessonId}/complete`);
    const [certificate] = await mine();
    const guest = new Client(ctx.app);
    const checked = await guest.get(`/api/certificates/verify/${certificate.number.toLowerCase()}`);
    expect(checked.statusCode).toBe(200);
    expect(checked.json().result.certificate).toEqual({
      number: certificate.number,
      status: 'valid',
      title: 'Удостоверение',
      learner_name: 'Иванова Мария',
      course_title: 'Охрана труда',
      completed_at: certificate.completed_at,
      valid_until: certificate.valid_until,
      issued_at: certificate.issued_at,
      revoked_at: null,
      revoke_reason: null,
      company_name: 'Тестовая компания',
    });
    expect((await guest.get('/api/certificates/verify/C-2222-2222-2222')).statusCode).toBe(404);
    expect((await guest.get('/api/certificates/verify/nonsense')).statusCode).toBe(422);

    const revoked = await admin.post(`/api/admin/certificates/${certificate.number}/revoke`, {
      reason: 'Выдан по ошибке',
    });
    expect(revoked.json().result).toMatchObject({ message: 'Сертификат отозван', certificate: { status: 'revoked' } });
    expect(
      (await admin.post(`/api/admin/certificates/${certificate.number}/revoke`, { reason: 'Еще раз' })).statusCode,
    ).toBe(422);
    const again = (await guest.get(`/api/certificates/verify/${certificate.number}`)).json().result.certificate;
    expect(again).toMatchObject({ status: 'revoked', revoke_reason: 'Выдан по ошибке' });

    // Numbers are not to be tried in bulk: 30 checks a minute per address.
    let last = 200;
    for (let i = 0; i < 30; i++) last = (await guest.get('/api/certificates/verify/C-3333-3333-3333')).statusCode;
    expect(last).toBe(429);
    ctx.clock.advance(61_000);
    expect((await guest.get(`/api/certificates/verify/${certificate.number}`)).statusCode).toBe(200);
  });

  it('the PDF goes to its learner, their manager and admins only, and says what the record says', async () => {
    await enable();
    await learner.post(`/api/lessons/${lessonId}/complete`);
    const [certificate] = await mine();
    const own = await learner.get(certificate.pdf_url);
    expect(own.statusCode).toBe(200);
    expect(own.headers['content-type']).toBe('application/pdf');
    const text = await pdfText(own.rawPayload);
    for (const part of [
      'Удостоверение',
      'Иванова Мария',
      'Охрана труда',
      certificate.number,
      'Петров П. П.',
      '/verify/',
    ]) {
      expect(text).toContain(part);
    }
    const manager = (await clientAs(ctx, 'manager', { department_id: department })).client;
    expect((await manager.get(certificate.pdf_url)).statusCode).toBe(200);
    const managerCards = await manager.get(`/api/analytics/users/${learnerUser.id}/certificates`);
    expect(managerCards.json().result.items).toHaveLength(1);
    const outsider = (await clientAs(ctx, 'manager', { department_id: await createDepartment(ctx.db, 'Другой') }))
      .client;
    expect((await outsider.get(certificate.pdf_url)).statusCode).toBe(404);
    expect((await outsider.get(`/api/analytics/users/${learnerUser.id}/certificates`)).statusCode).toBe(404);
    const colleague = (await clientAs(ctx, 'learner', { department_id: department })).client;
    expect((await colleague.get(certificate.pdf_url)).statusCode).toBe(404);
    expect((await admin.get(certificate.pdf_url)).statusCode).toBe(200);
  });

  it('records are sacred: deleting the course or the learner keeps the certificate as it was', async () => {
    await enable();
    await learner.post(`/api/lessons/${lessonId}/complete`);
    const [certificate] = await mine();
    expect((await admin.delete(`/api/admin/courses/${course}`)).statusCode).toBe(200);
    expect((await admin.delete(`/api/admin/users/${learnerUser.id}`)).statusCode).toBe(200);
    const guest = new Client(ctx.app);
    expect((await guest.get(`/api/certificates/verify/${certificate.number}`)).json().result.certificate).toMatchObject(
      {
        status: 'valid',
        learner_name: 'Иванова Мария',
        course_title: 'Охрана труда',
      },
    );
    expect((await admin.get(certificate.pdf_url)).statusCode).toBe(200);
  });

  it('the admin list filters by course, department, validity and name; exports; archives the PDFs', async () => {
    await enable();
    await learner.post(`/api/lessons/${lessonId}/complete`);
    const other = await clientAs(ctx, 'learner', { first_name: 'Олег', last_name: 'Ёлкин' });
    await admin.post('/api/admin/user-courses/attach', { user_id: other.user.id, course_ids: [course] });
    await other.client.post(`/api/lessons/${lessonId}/complete`);
    const list = async (query: string) =>
      (await admin.get(`/api/admin/certificates${query}`)).json().result as {
        items: { learner_name: string }[];
        total: number;
      };
    expect((await list('')).total).toBe(2);
    expect((await list(`?department_id=${department}`)).items.map((c) => c.learner_name)).toEqual(['Иванова Мария']);
    expect((await list('?search=елкин')).items.map((c) => c.learner_name)).toEqual(['Ёлкин Олег']);
    expect((await list('?search=%25')).total).toBe(0);
    expect((await list('?status=expired')).total).toBe(0);
    expect((await list(`?course_id=${course}&status=valid`)).total).toBe(2);

    const csv = (await admin.get('/api/admin/certificates/export?format=csv&tz=UTC')).body;
    expect(csv.split('\r\n')[0]).toContain('Номер;Сотрудник;Отдел;Курс');
    expect(csv).toContain('Ёлкин Олег');
    const archive = await admin.get(`/api/admin/certificates/archive?department_id=${department}`);
    expect(archive.statusCode).toBe(200);
    expect(archive.headers['content-type']).toBe('application/zip');
    expect(archive.rawPayload.subarray(0, 2).toString()).toBe('PK');
    const empty = await admin.get('/api/admin/certificates/archive?status=revoked');
    expect(empty.json().result.message).toBe('Нет сертификатов для архива');
  });
});
