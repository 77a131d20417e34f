import type { AdminUserSort } from '@lms/contract';
import { CompiledQuery, sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Client } from '../../test/harness.js';
import {
  clientAs,
  createDepartment,
  createTestApp,
  dialectName,
  queriesDuring,
  roleId,
  type TestContext,
} from '../../test/harness.js';
import { countStatement, pageStatement, searchOf } from './listing.js';

const SORTS: AdminUserSort[] = ['name', 'email', 'department', 'role', 'last_activity'];

describe(`settings: the employees list (${dialectName})`, () => {
  let ctx: TestContext;
  let admin: Client;
  let dep: number;
  let learnerRole: number;
  beforeEach(async () => {
    ctx = await createTestApp();
    admin = (await clientAs(ctx, 'admin')).client;
    dep = await createDepartment(ctx.db, 'Отдел продаж');
    learnerRole = await roleId(ctx.db, 'learner');
  });
  afterEach(async () => {
    await ctx.close();
  });

  const addUsers = async (rows: readonly (readonly [string, string, string])[]) => {
    for (const [first_name, last_name, email] of rows)
      await ctx.db.kysely
        .insertInto('users')
        .values({ first_name, last_name, email, password_hash: 'x', role_id: learnerRole, department_id: dep })
        .execute();
  };

  /** Ids and total of a search through the API, every match on one page. */
  const searched = async (search: string, sort: AdminUserSort = 'name') => {
    const res = await admin.get(`/api/admin/users?search=${encodeURIComponent(search)}&sort=${sort}&per_page=200`);
    expect(res.statusCode, `${search}: ${res.body}`).toBe(200);
    const body = res.json() as { items: { id: number }[]; total: number };
    return { ids: body.items.map((u) => u.id), total: body.total };
  };

  /** What the search answered before issue 31: every live row's name (both orders) and address through lower(). */
  const searchedBefore = async (search: string) => {
    const pattern = `%${search.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    const rows = await ctx.db.kysely
      .selectFrom('users')
      .select('id')
      .where('deleted_at', 'is', null)
      .where((eb) =>
        eb.or([
          sql<boolean>`lower(users.first_name || ' ' || users.last_name) like ${pattern} escape '\\'`,
          sql<boolean>`lower(users.last_name || ' ' || users.first_name) like ${pattern} escape '\\'`,
          sql<boolean>`lower(users.email) like ${pattern} escape '\\'`,
        ]),
      )
      .orderBy('last_name')
      .orderBy('first_name')
      .orderBy('id')
      .execute();
    return { ids: rows.map((r) => r.id), total: rows.length };
  };

  const expectSameAsBefore = async (searches: readonly string[], what = '') => {
    for (const search of searches)
      expect(await searched(search), `${what} ${search}`).toEqual(await searchedBefore(search));
  };

  it('pages, searches (name or email, any case, Cyrillic, wildcards literal) and sorts on the server', async () => {
    const names = [
      ['Анна', 'Яковлева', 'anna@example.com'],
      ['Борис', 'Иванов', 'boris@example.com'],
      ['Вера', 'Иванова', 'vera_100%@example.com'],
      ['Глеб', 'Смирнов', 'gleb@example.com'],
    ] as const;
    for (const [first_name, last_name, email] of names)
      await ctx.db.kysely
        .insertInto('users')
        .values({ first_name, last_name, email, password_hash: 'x', role_id: learnerRole, department_id: dep })
        .execute();
    const page = async (query: string) => {
      const res = await admin.get(`/api/admin/users?${query}`);
      expect(res.statusCode, res.body).toBe(200);
      return res.json() as { items: { email: string; name: string }[]; total: number; page: number; per_page: number };
    };
    // Without parameters: the full list, no paging fields.
    const all = (await admin.get('/api/admin/users')).json();
    expect(all.items).toHaveLength(5);
    expect(all.total).toBeUndefined();

    const first = await page('page=1&per_page=2');
    expect(first).toMatchObject({ total: 5, page: 1, per_page: 2 });
    expect(first.items.map((u) => u.email)).toEqual(['boris@example.com', 'vera_100%@example.com']);
    const third = await page('page=3&per_page=2');
    expect(third.items).toHaveLength(1);

    const found = await page('search=ИВАНОВ');
    expect(found.total).toBe(2);
    expect(found.items.map((u) => u.email).sort()).toEqual(['boris@example.com', 'vera_100%@example.com']);
    expect((await page('search=%25')).items.map((u) => u.email)).toEqual(['vera_100%@example.com']);
    expect((await page('search=_')).items.map((u) => u.email)).toEqual(['vera_100%@example.com']);
    expect((await page('search=Борис Иванов')).total).toBe(1);
    expect((await page('search=GLEB@')).total).toBe(1);
    expect((await page('search=нет такого')).total).toBe(0);
    // A search's page carries its count; a page past the last match still tells it.
    expect(await page('search=ИВАНОВ&page=2&per_page=1')).toMatchObject({ total: 2, page: 2 });
    const pastTheEnd = await page('search=ИВАНОВ&page=5&per_page=1');
    expect(pastTheEnd).toMatchObject({ total: 2, page: 5 });
    expect(pastTheEnd.items).toEqual([]);

    const byEmailDesc = await page('sort=email&direction=desc&per_page=1');
    expect(byEmailDesc.items[0]?.email).toBe('vera_100%@example.com');
    const byName = await page('sort=name&per_page=10');
    expect(byName.items.map((u) => u.email).slice(0, 2)).toEqual(['boris@example.com', 'vera_100%@example.com']);

    // The total without a search is the kept count: it follows deletion through the API, soft
    // deletion and restoring written directly, inserts and hard deletes.
    const boris = (
      await ctx.db.kysely
        .selectFrom('users')
        .select('id')
        .where('email', '=', 'boris@example.com')
        .executeTakeFirstOrThrow()
    ).id;
    expect((await admin.delete(`/api/admin/users/${boris}`)).statusCode).toBe(200);
    expect((await page('per_page=2')).total).toBe(4);
    const gleb = (
      await ctx.db.kysely
        .selectFrom('users')
        .select('id')
        .where('email', '=', 'gleb@example.com')
        .executeTakeFirstOrThrow()
    ).id;
    await ctx.db.kysely
      .updateTable('users')
      .set({ deleted_at: '2026-01-01T00:00:00.000Z' })
      .where('id', '=', gleb)
      .execute();
    await ctx.db.kysely.updateTable('users').set({ position: 'Кладовщик' }).where('id', '=', gleb).execute();
    expect((await page('per_page=2')).total).toBe(3);
    await ctx.db.kysely.updateTable('users').set({ deleted_at: null }).where('id', '=', gleb).execute();
    const temp = await ctx.db.kysely
      .insertInto('users')
      .values({
        first_name: 'Временный',
        last_name: 'Сотрудник',
        email: 'temp@example.com',
        password_hash: 'x',
        role_id: learnerRole,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    expect((await page('per_page=2')).total).toBe(5);
    await ctx.db.kysely.deleteFrom('users').where('id', '=', temp.id).execute();
    const live = await ctx.db.kysely
      .selectFrom('users')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('deleted_at', 'is', null)
      .executeTakeFirstOrThrow();
    expect((await page('per_page=2')).total).toBe(Number(live.n));
    expect(Number(live.n)).toBe(4);

    for (const bad of ['page=0', 'per_page=201', 'sort=password_hash', 'direction=up', 'page=x'])
      expect((await admin.get(`/api/admin/users?${bad}`)).statusCode, bad).toBe(422);
  });

  it('pages in every order and direction, with and without a search, as one list cut into pages', async () => {
    const other = await createDepartment(ctx.db, 'Бухгалтерия');
    const roles = [learnerRole, await roleId(ctx.db, 'manager'), await roleId(ctx.db, 'author')];
    // Ties in every key, users without a department or activity: the order must still be total.
    for (let i = 0; i < 23; i++)
      await ctx.db.kysely
        .insertInto('users')
        .values({
          first_name: ['Анна', 'Борис', 'Вера'][i % 3] as string,
          last_name: ['Иванова', 'Петров', 'Сидоров', 'Иванова'][i % 4] as string,
          email: `user${(i * 7) % 23}@example.com`,
          password_hash: 'x',
          role_id: roles[i % 3] as number,
          department_id: [dep, other, null][i % 3] ?? null,
          last_activity_at: i % 5 === 0 ? null : `2026-0${1 + (i % 4)}-01T00:00:00.000Z`,
        })
        .execute();
    const ids = async (query: string) => {
      const res = await admin.get(`/api/admin/users?${query}`);
      expect(res.statusCode, res.body).toBe(200);
      return (res.json() as { items: { id: number }[] }).items.map((u) => u.id);
    };
    const ascending = new Map<string, number[]>();
    for (const sort of ['name', 'email', 'department', 'role', 'last_activity'])
      for (const direction of ['asc', 'desc'])
        for (const search of ['', '&search=иванова']) {
          const query = `sort=${sort}&direction=${direction}${search}`;
          const whole = await ids(`${query}&page=1&per_page=200`);
          expect(whole.length, query).toBe(search ? 11 : 24);
          const pages: number[] = [];
          for (let page = 1; page <= Math.ceil(whole.length / 5); page++)
            pages.push(...(await ids(`${query}&page=${page}&per_page=5`)));
          expect(pages, query).toEqual(whole);
          // Each order and direction is its own statement: the other direction must not answer for it.
          const asc = ascending.get(`${sort}${search}`);
          if (!asc) ascending.set(`${sort}${search}`, whole);
          else if (sort === 'department' || sort === 'last_activity') expect(whole, query).not.toEqual(asc);
          else expect(whole, query).toEqual([...asc].reverse());
        }
  });

  it('finds what the search found before: Cyrillic, ё, any case, addresses, quotes and wildcards', async () => {
    await addUsers([
      ['Семён', 'Королёв', 'semen.korolev@example.com'],
      ['Семен', 'Королев', 'SEMEN@Example.COM'],
      ['Ёлка', 'ЁЖИКОВА', 'yo@example.com'],
      ['Анна-Мария', "О'Нил", 'anna_maria@example.com'],
      ['Ольга "Оля"', 'Кузнецова', 'olga\\100%@example.com'],
      ['Iван', 'Mixed Case', 'MiXeD@example.com'],
      ['Ülrich', 'Straße', 'ulrich@example.com'],
      ['İlker', 'Çelik', 'ilker@example.com'],
    ]);
    // A deleted user matches nothing.
    await addUsers([['Семён', 'Удалённый', 'gone@example.com']]);
    await ctx.db.kysely
      .updateTable('users')
      .set({ deleted_at: '2026-01-01T00:00:00.000Z' })
      .where('email', '=', 'gone@example.com')
      .execute();
    const names = await ctx.db.kysely.selectFrom('users').select(['first_name', 'last_name', 'email']).execute();
    // Pieces of every text searched, of 1 to 6 characters, at every third position, as typed and upper-cased.
    const pieces = names.flatMap((u) =>
      [`${u.first_name} ${u.last_name}`, `${u.last_name} ${u.first_name}`, u.email].flatMap((text) => {
        const chars = [...text];
        return chars.flatMap((_, at) =>
          at % 3 === 0 ? [1, 2, 3, 6].map((n) => chars.slice(at, at + n).join('')) : [],
        );
      }),
    );
    const searches = [...new Set(pieces.flatMap((p) => [p, p.toUpperCase()]))].filter((s) => s.trim() === s && s);
    expect(searches.length).toBeGreaterThan(300);
    await expectSameAsBefore([
      ...searches,
      ...['ё', 'е', 'Ё', 'Е', 'королев', 'королёв', 'КОРОЛЁВ', 'семён королёв', 'королёв семён', 'ёв с'],
      ...['%', '_', '\\', '"', '"оля"', 'a"', '\\100%', 'example.com', 'EXAMPLE.COM', 'mixed case', 'straße'],
      ...['i̇', 'İ', 'ÇELİK', "о'н", 'нет такого', 'semen@example.com', 'n@e', 'ов', 'о', '@'],
    ]);
    for (const sort of SORTS)
      await expectSameAsBefore(
        ['ё', 'семен', 'example'].map((s) => s),
        sort,
      );
  });

  it('follows every write of a name, an address or a deletion, whoever writes it', async () => {
    await addUsers(Array.from({ length: 6 }, (_, i) => [`Имя${i}`, `Фамилия${i}`, `u${i}@example.com`] as const));
    const k = ctx.db.kysely;
    const searches = ['фамилия', 'Аардварк', 'u3@', 'оля', 'new@', 'ия3', 'ЁЖ'];
    const u3 = (
      await k.selectFrom('users').select('id').where('email', '=', 'u3@example.com').executeTakeFirstOrThrow()
    ).id;
    const changes: [string, () => Promise<unknown>][] = [
      ['renamed', () => k.updateTable('users').set({ last_name: 'Аардварк' }).where('id', '=', u3).execute()],
      ['readdressed', () => k.updateTable('users').set({ email: 'NEW@example.com' }).where('id', '=', u3).execute()],
      ['other columns', () => k.updateTable('users').set({ position: 'Ёжик', last_activity_at: null }).execute()],
      [
        'deleted',
        () => k.updateTable('users').set({ deleted_at: '2026-11-02T00:00:00.000Z' }).where('id', '=', u3).execute(),
      ],
      ['restored', () => k.updateTable('users').set({ deleted_at: null }).where('id', '=', u3).execute()],
      [
        'added through the API',
        () =>
          admin.post('/api/admin/users', {
            first_name: 'Оля',
            last_name: 'Ёжикова',
            login: 'olya@example.com',
            department_id: dep,
            role_id: learnerRole,
            course_ids: [],
          }),
      ],
      [
        'renamed through the API',
        () =>
          admin.put(`/api/admin/users/${u3}`, {
            first_name: 'Оля',
            last_name: 'Фамилия3',
            login: 'u3@example.com',
            department_id: dep,
            role_id: learnerRole,
          }),
      ],
      ['deleted through the API', () => admin.delete(`/api/admin/users/${u3}`)],
      ['removed for good', () => k.deleteFrom('users').where('email', '=', 'u5@example.com').execute()],
    ];
    await expectSameAsBefore(searches, 'at first');
    for (const [what, change] of changes) {
      await change();
      await expectSameAsBefore(searches, what);
    }
    // SQLite's index holds exactly the stored text of every row (an error otherwise).
    if (ctx.db.kind === 'sqlite')
      await sql`insert into users_search (users_search, rank) values ('integrity-check', 1)`.execute(k);
  });

  it('finds users through the index: its plan reads the index, not every user', async () => {
    const k = ctx.db.kysely;
    const { kind } = ctx.db;
    const numbers =
      kind === 'sqlite'
        ? sql`(with recursive s(n) as (select 1 union all select n + 1 from s where n < 3000) select n from s)`
        : sql`generate_series(1, 3000) as s(n)`;
    await sql`insert into users (first_name, last_name, email, password_hash, role_id)
      select 'Имя' || n, 'Фамилия' || n, 'user' || n || '@example.com', 'x', ${learnerRole} from ${numbers}`.execute(k);
    // As autovacuum soon would: the rows written since the GIN index was made are merged into it.
    if (kind === 'postgres') await sql`select gin_clean_pending_list('users_search_trgm'::regclass)`.execute(k);
    await sql`analyze`.execute(k);
    const plan = async (statement: CompiledQuery) => {
      const explain = kind === 'sqlite' ? 'explain query plan ' : 'explain ';
      const rows = (await k.executeQuery(CompiledQuery.raw(explain + statement.sql, [...statement.parameters]))).rows;
      return (rows as Record<string, unknown>[]).map((r) => String(r.detail ?? r['QUERY PLAN'])).join('\n');
    };
    const usesIndex = (text: string, what: string) => {
      if (kind === 'sqlite') {
        expect(text, what).toMatch(/SCAN users_search VIRTUAL TABLE INDEX \d+:M/);
        // Every user read is one the index found (by its rowid), none from a scan of the table.
        expect(text, what).not.toMatch(/SCAN users\b/);
      } else expect(text, what).toMatch(/users_search_trgm/);
    };
    // A name, and a whole address (the index is asked for its name and '@', searchOf).
    for (const typed of ['USER1234@', 'user1234@example.com']) {
      const search = searchOf(kind, typed);
      expect(search.mode).toBe('indexed');
      const { key, text } = search;
      usesIndex(await plan(countStatement({ kind, mode: search.mode }).bind(k, { key, text })), 'count');
      for (const sort of SORTS)
        for (const direction of ['asc', 'desc'] as const) {
          const statement = pageStatement({ kind, mode: search.mode, sort, direction });
          usesIndex(await plan(statement.bind(k, { key, text, limit: 50, offset: 0 })), `${sort} ${direction}`);
        }
      expect(await searched(typed)).toEqual({ ids: (await searchedBefore(typed)).ids, total: 1 });
    }

    // A search matching most users is found through the index too (reading the name index in order
    // until the page is full costs most when the matches lie together in that order).
    const broad = await queriesDuring(() => admin.get('/api/admin/users?search=фамилия&page=3&per_page=20'));
    const pageSql = broad.find((q) => q.includes('search_text') && /\blimit\b/.test(q));
    expect(pageSql).toMatch(kind === 'sqlite' ? /users_search match/ : /search_text like/);
    const page3 = (await admin.get('/api/admin/users?search=фамилия&page=3&per_page=20')).json();
    const before = await searchedBefore('фамилия');
    expect(page3.total).toBe(before.total);
    expect(page3.items.map((u: { id: number }) => u.id)).toEqual(before.ids.slice(40, 60));
  });
});
