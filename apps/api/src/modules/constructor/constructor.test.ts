import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { connect } from 'node:net';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  clientAs,
  createCourse,
  createTestApp,
  dialectName,
  recordLesson,
  type Client,
  type TestContext,
} from '../../test/harness.js';
import { multipart } from '../../test/multipart.js';
import { PNG } from '../../test/images.js';

const EXE = Buffer.concat([Buffer.from('MZ'), Buffer.alloc(200, 1)]);

/** Sends half of a multipart upload over a real socket, then drops the connection. */
async function abortedUpload(ctx: TestContext, client: Client, fields: Record<string, string>) {
  const { payload, headers } = multipart(fields, {
    field: 'file',
    name: 'cut.bin',
    type: 'application/octet-stream',
    data: Buffer.alloc(256 * 1024, 7),
  });
  const address = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = new URL(address);
  const cookie = [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  const head = [
    'POST /api/upload-file HTTP/1.1',
    `Host: 127.0.0.1:${port}`,
    `Content-Type: ${headers['content-type']}`,
    `Content-Length: ${payload.length}`,
    'X-Requested-With: XMLHttpRequest',
    `X-XSRF-TOKEN: ${decodeURIComponent(client.cookies.get('XSRF-TOKEN') ?? '')}`,
    `Cookie: ${cookie}`,
    '',
    '',
  ].join('\r\n');
  const socket = connect(Number(port), '127.0.0.1');
  await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  socket.write(head);
  socket.write(payload.subarray(0, payload.length / 2));
  // Wait for the server to be writing the file (an event, not a time), then drop the connection.
  await vi.waitFor(() => expect(partFiles(ctx)).toHaveLength(1), { timeout: 10_000, interval: 10 });
  socket.destroy();
  await vi.waitFor(() => expect(partFiles(ctx)).toEqual([]), { timeout: 10_000, interval: 10 });
}

/** Files being written: the folder store's temporary files, renamed into place when complete. */
function partFiles(ctx: TestContext) {
  try {
    return readdirSync(join(ctx.config.dataDir, '.store-tmp'));
  } catch {
    return [];
  }
}

function storedFiles(ctx: TestContext, folder: string) {
  try {
    return readdirSync(join(ctx.config.dataDir, 'storage', folder));
  } catch {
    return [];
  }
}

describe(`course constructor (${dialectName})`, () => {
  let ctx: TestContext;
  let author: Client;
  let course: number;
  beforeEach(async () => {
    ctx = await createTestApp();
    author = (await clientAs(ctx, 'author')).client;
    course = await createCourse(ctx.db, 'Охрана труда', { is_published: false });
  });
  afterEach(async () => {
    await ctx.close();
  });

  const upload = (url: string, fields: Record<string, string>, file: Parameters<typeof multipart>[1]) => {
    const { payload, headers } = multipart(fields, file);
    return author.request('POST', url, payload, headers);
  };
  const newModule = async (name = 'Модуль') =>
    (await author.post('/api/courses/modules', { name, course_id: course, sort_order: 0 })).json().result.item;
  const newLesson = async (moduleId: number, name?: string) =>
    (await author.post('/api/courses/lessons', { module_id: moduleId, ...(name ? { name } : {}) })).json().result.item;

  it('reads and updates the course header and settings; refuses bad values and changes nothing', async () => {
    const got = await author.get(`/api/courses/${course}`);
    expect(got.statusCode).toBe(200);
    expect(got.json().result.course).toMatchObject({
      id: course,
      title: 'Охрана труда',
      image: null,
      is_published: false,
      deadline_unit: 'days',
      accessibility: 'enrolled_only',
    });
    const renamed = await author.put(`/api/courses/${course}`, {
      title: 'Пожарная безопасность',
      description: 'Кратко',
    });
    expect(renamed.json().result).toMatchObject({ success: true, message: 'Данные сохранены' });
    expect(renamed.json().result.course.title).toBe('Пожарная безопасность');
    const settings = await author.put(`/api/courses/${course}`, {
      has_deadline: true,
      deadline_type: 'from_start',
      deadline_value: 14,
      deadline_warning_days: 3,
      accessibility: 'everyone',
    });
    expect(settings.json().result.message).toBe('Настройки курса успешно сохранены');
    for (const body of [
      { title: 'x'.repeat(151) },
      { description: 'x'.repeat(256) },
      { title: '' },
      { deadline_value: 0 },
      { deadline_value: 1000 },
      { accessibility: 'all' },
      {},
    ]) {
      const res = await author.put(`/api/courses/${course}`, body);
      expect([JSON.stringify(body), res.statusCode]).toEqual([JSON.stringify(body), 422]);
      expect(res.json().result.message).toMatch(/[а-яА-Я]/);
    }
    expect((await author.get(`/api/courses/${course}`)).json().result.course).toMatchObject({
      title: 'Пожарная безопасность',
      deadline_value: 14,
      accessibility: 'everyone',
    });
    expect((await author.get('/api/courses/999999')).statusCode).toBe(404);
    const publish = await author.post(`/api/courses/${course}/publish`, { is_published: true });
    expect(publish.json().result).toEqual({ success: true, message: 'Статус курса успешно изменен' });
    expect((await author.get(`/api/courses/${course}`)).json().result.course.is_published).toBe(true);
  });

  it('creates, renames, orders and deletes modules; order is sequential from 0', async () => {
    const created = await author.post('/api/courses/modules', { name: 'Введение', course_id: course, sort_order: 7 });
    expect(created.statusCode).toBe(201);
    expect(created.json().result).toMatchObject({
      message: 'Модуль успешно создан',
      item: { name: 'Введение', sort_order: 0, lessons: [], tests: [], status: 'process' },
    });
    const a = created.json().result.item.id as number;
    const b = (await newModule('Основы')).id as number;
    const c = (await newModule('Итог')).id as number;
    expect((await author.post('/api/courses/modules', { name: '  ', course_id: course })).json().result.message).toBe(
      'Поле не может быть пустым',
    );
    const rename = await author.put(`/api/courses/${course}/modules/${b}`, { name: 'Основы ТБ' });
    expect(rename.json().result.message).toBe('Название модуля успешно обновлено');
    const sort = await author.put(`/api/courses/${course}/modules/sort`, {
      modules: [
        { id: c, sort_order: 0 },
        { id: a, sort_order: 1 },
        { id: b, sort_order: 2 },
      ],
    });
    expect(sort.json().result.message).toBe('Порядок модулей успешно обновлен');
    const list = async () =>
      (
        (await author.get(`/api/courses/${course}/modules`)).json().result.items as {
          id: number;
          name: string;
          sort_order: number;
        }[]
      ).map((m) => [m.id, m.name, m.sort_order]);
    expect(await list()).toEqual([
      [c, 'Итог', 0],
      [a, 'Введение', 1],
      [b, 'Основы ТБ', 2],
    ]);
    // A stale list (a module missing) changes nothing.
    const stale = await author.put(`/api/courses/${course}/modules/sort`, { modules: [{ id: a, sort_order: 0 }] });
    expect(stale.statusCode).toBe(422);
    const del = await author.delete(`/api/courses/${course}/modules/${a}`);
    expect(del.json().result.message).toBe('Модуль и его уроки успешно удалены');
    expect(await list()).toEqual([
      [c, 'Итог', 0],
      [b, 'Основы ТБ', 1],
    ]);
    const other = await createCourse(ctx.db, 'Чужой');
    expect((await author.put(`/api/courses/${other}/modules/${b}`, { name: 'X' })).statusCode).toBe(404);
  });

  it('creates lessons, orders lessons and tests as one list, publishes and marks the module published', async () => {
    const mod = await newModule();
    const first = await author.post('/api/courses/lessons', { module_id: mod.id });
    expect(first.statusCode).toBe(201);
    expect(first.json().result).toMatchObject({
      message: 'Урок успешно создан',
      item: { name: 'Новый урок', type: 'lesson', sort_order: 0, is_published: false },
    });
    const second = await newLesson(mod.id, 'Второй');
    expect(second.sort_order).toBe(1);
    const l1 = first.json().result.item.id as number;
    const sort = await author.put(`/api/courses/${course}/modules/${mod.id}/items/sort`, {
      items: [
        { id: second.id, type: 'lesson', sort_order: 0 },
        { id: l1, type: 'lesson', sort_order: 1 },
      ],
    });
    expect(sort.json().result.message).toBe('Порядок элементов успешно обновлен');
    const bad = await author.put(`/api/courses/${course}/modules/${mod.id}/items/sort`, {
      items: [{ id: l1, type: 'test', sort_order: 0 }],
    });
    expect(bad.statusCode).toBe(422);

    const rename = await author.put(`/api/courses/${course}/lessons/${l1}`, { name: 'Первый' });
    expect(rename.json().result.message).toBe('Название урока успешно сохранено');
    const pub1 = await author.put(`/api/courses/${course}/lessons/${l1}`, { name: 'Первый', is_published: true });
    expect(pub1.json().result).toMatchObject({ message: 'Урок опубликован', item: { is_published: true } });
    let modules = (await author.get(`/api/courses/${course}/modules`)).json().result.items;
    expect(modules[0]).toMatchObject({ is_published: false, published_at: null });
    expect(modules[0].lessons.map((l: { id: number }) => l.id)).toEqual([second.id, l1]);
    await author.put(`/api/courses/${course}/lessons/${second.id}`, { name: 'Второй', is_published: true });
    modules = (await author.get(`/api/courses/${course}/modules`)).json().result.items;
    expect(modules[0]).toMatchObject({ is_published: true, published_at: ctx.clock.now().toISOString() });

    const lesson = await author.get(`/api/courses/${course}/lessons/${l1}`);
    expect(lesson.json().result.lesson).toMatchObject({ id: l1, name: 'Первый', type: 'lesson', contents: [] });
    const other = await createCourse(ctx.db, 'Чужой');
    expect((await author.get(`/api/courses/${other}/lessons/${l1}`)).statusCode).toBe(404);
    expect((await author.delete(`/api/courses/lessons/${l1}`)).json().result.message).toBe('Урок успешно удален');
    expect((await author.get(`/api/courses/${course}/lessons/${l1}`)).statusCode).toBe(404);
  });

  it('saves the block list in one go: new ids, updates, removals, sanitizing and per-type rules', async () => {
    const mod = await newModule();
    const lesson = await newLesson(mod.id);
    const url = `/api/courses/${course}/lessons/${lesson.id}/contents`;
    const saved = await author.put(url, {
      contents: [
        { id: 'tmp-title', type: 'title', content: 'Заголовок', sort_order: 5 },
        { id: 'tmp-desc', type: 'description', content: 'Описание', sort_order: 9 },
        {
          id: 'tmp-1',
          type: 'text',
          content:
            '<p onclick="x()">Текст<script>alert(1)</script><a href="javascript:alert(1)">ссылка</a></p><iframe src="https://evil.example/x"></iframe><iframe src="https://www.youtube.com/embed/dQw4w9WgXcQ"></iframe>',
          sort_order: 0,
        },
        { id: 'tmp-2', type: 'video', content: { url: 'https://youtu.be/dQw4w9WgXcQ' }, sort_order: 1 },
        {
          id: 'tmp-3',
          type: 'video',
          content: { url: 'https://example.com/video.mp4', videoId: 'forged' },
          sort_order: 2,
        },
        { id: 'tmp-4', type: 'button', content: [{ title: 'Кнопка', url: 'https://example.com' }], sort_order: 3 },
      ],
    });
    expect(saved.statusCode).toBe(200);
    expect(saved.json().result.message).toBe('Изменения успешно сохранены');
    const blocks = saved.json().result.contents as { id: number; type: string; content: unknown; sort_order: number }[];
    expect(blocks.map((b) => [b.type, b.sort_order])).toEqual([
      ['title', -2],
      ['description', -1],
      ['text', 0],
      ['video', 1],
      ['video', 2],
      ['button', 3],
    ]);
    const html = blocks[2]?.content as string;
    expect(html).not.toMatch(/script|onclick|javascript|evil/);
    expect(html).toContain('https://www.youtube.com/embed/dQw4w9WgXcQ');
    expect(blocks[3]?.content).toEqual({ url: 'https://youtu.be/dQw4w9WgXcQ', videoId: 'dQw4w9WgXcQ' });
    expect(blocks[4]?.content).toEqual({ url: 'https://example.com/video.mp4', videoId: null });

    // Keep two, change one, drop the rest, add one.
    const [title, , text] = blocks as [{ id: number }, { id: number }, { id: number }];
    const second = await author.put(url, {
      contents: [
        { id: title.id, type: 'title', content: 'Новый заголовок', sort_order: -2 },
        { id: text.id, type: 'text', content: '<p>Другой</p>', sort_order: 0 },
        { id: 'tmp-5', type: 'button', content: [{ title: 'Ещё', url: '/courses/1' }], sort_order: 1 },
      ],
    });
    const after = second.json().result.contents as { id: number; content: unknown }[];
    expect(after.map((b) => b.id).slice(0, 2)).toEqual([title.id, text.id]);
    expect(after).toHaveLength(3);
    expect(after[0]?.content).toBe('Новый заголовок');

    for (const [why, block] of [
      [
        'three buttons',
        { id: 'n', type: 'button', content: [1, 2, 3].map(() => ({ title: 'a', url: '' })), sort_order: 0 },
      ],
      ['a long label', { id: 'n', type: 'button', content: [{ title: 'x'.repeat(41), url: '' }], sort_order: 0 }],
      [
        'a script link',
        { id: 'n', type: 'button', content: [{ title: 'a', url: 'javascript:alert(1)' }], sort_order: 0 },
      ],
      ['a foreign block id', { id: 999999, type: 'text', content: '', sort_order: 0 }],
      [
        'a file never uploaded',
        { id: 'n', type: 'file', file_path: 'lessons/nope.pdf', original_filename: 'x.pdf', sort_order: 0 },
      ],
    ] as const) {
      const res = await author.put(url, { contents: [block] });
      expect([why, res.statusCode]).toEqual([why, 422]);
    }
    expect(
      ((await author.get(`/api/courses/${course}/lessons/${lesson.id}`)).json().result.lesson.contents as unknown[])
        .length,
    ).toBe(3);
  });

  it('uploads images checked by content and files streamed to disk; bad or aborted uploads leave nothing', async () => {
    const mod = await newModule();
    const lesson = await newLesson(mod.id);
    const fields = { lesson_id: String(lesson.id) };
    const img = await upload('/api/upload-image', fields, {
      field: 'image',
      name: 'схема.png',
      type: 'image/png',
      data: PNG,
    });
    expect(img.statusCode).toBe(200);
    const { file_path, original_filename, url } = img.json().result;
    expect(original_filename).toBe('схема.png');
    expect(file_path).toMatch(/^lessons\/[0-9a-f]{32}\.png$/);
    expect(url).toBe(`/storage/${file_path}`);
    expect((await author.get(url)).statusCode).toBe(200);

    const exe = await upload('/api/upload-image', fields, {
      field: 'image',
      name: 'photo.png',
      type: 'image/png',
      data: EXE,
    });
    expect(exe.statusCode).toBe(422);
    expect(exe.json().result.message).toBe('Пожалуйста, выберите файл формата .jpg, .png, .webp или .gif');
    const big = Buffer.concat([PNG, Buffer.alloc(20 * 1024 * 1024)]);
    const tooBig = await upload('/api/upload-image', fields, {
      field: 'image',
      name: 'big.png',
      type: 'image/png',
      data: big,
    });
    expect(tooBig.statusCode).toBe(413);
    expect(tooBig.json().result.message).toBe('Размер файла не должен превышать 20 МБ');
    const noLesson = await upload(
      '/api/upload-image',
      { lesson_id: '999999' },
      { field: 'image', name: 'a.png', type: 'image/png', data: PNG },
    );
    expect(noLesson.statusCode).toBe(404);

    const doc = await upload('/api/upload-file', fields, {
      field: 'file',
      name: 'Памятка.pdf',
      type: 'application/pdf',
      data: Buffer.from('%PDF-1.4 test'),
    });
    expect(doc.statusCode).toBe(200);
    expect(doc.json().result.file_path).toMatch(/^lessons\/[0-9a-f]{32}\.pdf$/);
    // A connection dropped mid-file: nothing of it is kept.
    await abortedUpload(ctx, author, fields);
    expect(storedFiles(ctx, 'lessons')).toHaveLength(2);
    expect(partFiles(ctx)).toEqual([]);
    const rows = await ctx.db.kysely.selectFrom('files').select('path').execute();
    expect(rows.map((r) => r.path).sort()).toEqual([file_path, doc.json().result.file_path].sort());

    const cover = await upload(
      `/api/courses/${course}/image`,
      {},
      { field: 'image', name: 'c.png', type: 'image/png', data: PNG },
    );
    expect(cover.json().result).toMatchObject({ success: true, message: 'Изображение успешно загружено' });
    expect(cover.json().result.image).toMatch(/^storage\/courses\/[0-9a-f]{32}\.png$/);
    expect((await author.get(`/api/courses/${course}`)).json().result.course.image).toBe(cover.json().result.image);

    // A saved file block refers to an uploaded file; its picture is served to learners once published.
    const save = await author.put(`/api/courses/${course}/lessons/${lesson.id}/contents`, {
      contents: [
        { id: 'a', type: 'image', content: { file_path, original_filename, url, description: 'Схема' }, sort_order: 0 },
        {
          id: 'b',
          type: 'file',
          file_path: doc.json().result.file_path,
          original_filename: 'Памятка.pdf',
          sort_order: 1,
        },
      ],
    });
    expect(save.statusCode).toBe(200);
    expect(save.json().result.contents[0].content).toEqual({ url, file_path, original_filename, description: 'Схема' });
  });

  it('deletes a course softly: it vanishes, records stay', async () => {
    const mod = await newModule();
    const lesson = await newLesson(mod.id);
    const { user } = await clientAs(ctx, 'learner');
    await recordLesson(ctx.db, user.id, lesson.id, null, '2026-01-10T00:00:00.000Z');
    const del = await author.delete(`/api/admin/courses/${course}`);
    expect(del.json().result).toEqual({ success: true, message: 'Курс успешно удален' });
    expect((await author.get(`/api/courses/${course}`)).statusCode).toBe(404);
    expect((await author.delete(`/api/admin/courses/${course}`)).statusCode).toBe(404);
    expect(await ctx.db.kysely.selectFrom('lesson_progress').select('user_id').execute()).toEqual([
      { user_id: user.id },
    ]);
  });

  it('is for admins and authors only', async () => {
    for (const role of ['learner', 'manager'] as const) {
      const { client } = await clientAs(ctx, role);
      const res = await client.get(`/api/courses/${course}`);
      expect([role, res.statusCode, res.json().result.message]).toEqual([role, 403, 'Доступ запрещен']);
    }
    const { client: admin } = await clientAs(ctx, 'admin');
    expect((await admin.get(`/api/courses/${course}/modules`)).statusCode).toBe(200);
  });
});
