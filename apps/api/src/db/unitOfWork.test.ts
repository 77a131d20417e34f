import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestDb, dialectName } from '../test/harness.js';
import type { Db } from './connect.js';
import { migrateToLatest } from './migrate.js';
import { UnitOfWork } from './unitOfWork.js';

describe(`unit of work (${dialectName})`, () => {
  let db: Db;
  let drop: () => Promise<void>;
  let uow: UnitOfWork;
  beforeEach(async () => {
    ({ db, drop } = await createTestDb());
    await migrateToLatest(db.kysely, db.kind, db.schema);
    uow = new UnitOfWork(db.kysely, db.kind);
  });
  afterEach(async () => {
    await drop();
  });

  const insert = (name: string) => uow.db.insertInto('departments').values({ name, sort_order: null }).execute();
  const names = async () =>
    (await db.kysely.selectFrom('departments').select('name').orderBy('name').execute()).map((r) => r.name);

  it('commits every query of the unit, nested units included, at once', async () => {
    await uow.run(async () => {
      await insert('А');
      await uow.run(() => insert('Б'));
      expect(uow.inUnit).toBe(true);
    });
    expect(uow.inUnit).toBe(false);
    expect(await names()).toEqual(['А', 'Б']);
  });

  it('undoes every query of the unit when any part fails, however deep', async () => {
    await expect(
      uow.run(async () => {
        await insert('А');
        await uow.run(async () => {
          await insert('Б');
          throw new Error('rule broken');
        });
      }),
    ).rejects.toThrow('rule broken');
    expect(await names()).toEqual([]);
  });

  it('does the work gathered over a unit once, at its end, inside its transaction', async () => {
    const finished: string[][] = [];
    const gather = (name: string) => {
      const names = uow.atEnd(
        'names',
        () => [] as string[],
        async (all) => {
          finished.push([...all]);
          await insert(all.join('+'));
        },
      );
      names?.push(name);
      return names;
    };
    expect(gather('вне')).toBeUndefined();
    await uow.run(async () => {
      gather('А');
      await uow.run(async () => {
        gather('Б');
      });
      expect(finished).toEqual([]);
    });
    expect(finished).toEqual([['А', 'Б']]);
    expect(await names()).toEqual(['А+Б']);
    // A unit that fails does not do it, and what it did is undone.
    await expect(
      uow.run(async () => {
        gather('В');
        throw new Error('rule broken');
      }),
    ).rejects.toThrow('rule broken');
    await expect(
      uow.run(async () => {
        uow.atEnd(
          'failing',
          () => 0,
          async () => {
            throw new Error('at the end');
          },
        );
        await insert('Г');
      }),
    ).rejects.toThrow('at the end');
    expect(finished).toEqual([['А', 'Б']]);
    expect(await names()).toEqual(['А+Б']);
  });

  it('keeps parallel units apart', async () => {
    const results = await Promise.allSettled([
      uow.run(async () => {
        await insert('Первый');
      }),
      uow.run(async () => {
        await insert('Второй');
        throw new Error('no');
      }),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected']);
    expect(await names()).toEqual(['Первый']);
  });
});
