import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestDb, dialectName, queriesDuring } from '../test/harness.js';
import type { Db } from './connect.js';
import { migrateToLatest } from './migrate.js';
import { PreparedQuery } from './prepared.js';
import { UnitOfWork } from './unitOfWork.js';

describe(`prepared queries (${dialectName})`, () => {
  let db: Db;
  let drop: () => Promise<void>;
  beforeEach(async () => {
    ({ db, drop } = await createTestDb());
    await migrateToLatest(db.kysely, db.kind, db.schema);
    for (const [name, sort] of [
      ['Продажи', 1],
      ['Склад', 2],
      ['Бухгалтерия', null],
    ] as const)
      await db.kysely.insertInto('departments').values({ name, sort_order: sort }).execute();
  });
  afterEach(async () => {
    await drop();
  });

  it('builds once, binds each call its own values (a name used twice included), converts results as Kysely does', async () => {
    let builds = 0;
    const byNameOrSort = new PreparedQuery(['name', 'sort'], (k, p: { name: string; sort: number }) => {
      builds++;
      return k
        .selectFrom('departments')
        .select(['name', 'sort_order'])
        .where((eb) => eb.or([eb('name', '=', p.name), eb('sort_order', '=', p.sort), eb('name', '=', p.name)]))
        .orderBy('name');
    });
    expect(await byNameOrSort.execute(db.kysely, { name: 'Склад', sort: 1 })).toEqual([
      { name: 'Продажи', sort_order: 1 },
      { name: 'Склад', sort_order: 2 },
    ]);
    const sql = await queriesDuring(async () => {
      expect(await byNameOrSort.execute(db.kysely, { name: 'Бухгалтерия', sort: 7 })).toEqual([
        { name: 'Бухгалтерия', sort_order: null },
      ]);
    });
    expect(await byNameOrSort.executeTakeFirst(db.kysely, { name: 'Нет такого', sort: 0 })).toBeUndefined();
    expect(builds).toBe(1);
    expect(sql).toHaveLength(1);
  });

  it('runs inside a unit of work on its connection, and sees what the unit wrote', async () => {
    const uow = new UnitOfWork(db.kysely, db.kind);
    const named = new PreparedQuery(['name'], (k, p: { name: string }) =>
      k.selectFrom('departments').select('id').where('name', '=', p.name),
    );
    await uow.run(async () => {
      await uow.db.insertInto('departments').values({ name: 'Новый', sort_order: null }).execute();
      expect(await named.execute(uow.db, { name: 'Новый' })).toHaveLength(1);
    });
    await expect(
      uow.run(async () => {
        await uow.db.insertInto('departments').values({ name: 'Отменённый', sort_order: null }).execute();
        expect(await named.execute(uow.db, { name: 'Отменённый' })).toHaveLength(1);
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(await named.execute(db.kysely, { name: 'Отменённый' })).toEqual([]);
  });

  it('refuses a query that does not bind every slot as a value', async () => {
    const unbound = new PreparedQuery(['name'], (k, p: { name: string }) =>
      k.selectFrom('departments').select('id').where('name', '=', p.name.slice(1)),
    );
    await expect(unbound.execute(db.kysely, { name: 'Склад' })).rejects.toThrow('does not bind name');
    const derived = new PreparedQuery(['name'], (k, p: { name: string }) =>
      k.selectFrom('departments').select('id').where('name', '=', p.name).where('name', '!=', `${p.name}!`),
    );
    await expect(derived.execute(db.kysely, { name: 'Склад' })).rejects.toThrow('made from a slot: name!');
  });
});
