import SQLite from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { connect } from './connect.js';
import { ROWS_CONVERTED, withStatementCache } from './statementCache.js';
import { sqliteColumnConversion } from './values.js';

describe('statement cache', () => {
  it('prepares a text once, evicts the least recently used, and still runs every query', () => {
    const raw = new SQLite(':memory:');
    let prepared = 0;
    const counting = {
      close: () => raw.close(),
      prepare: (sql: string) => {
        prepared++;
        return raw.prepare(sql);
      },
    };
    const db = withStatementCache(counting, 2);
    db.prepare('create table t (v integer)').run([]);
    db.prepare('insert into t (v) values (?)').run([1]);
    db.prepare('insert into t (v) values (?)').run([2]);
    expect(prepared).toBe(2);
    expect(db.prepare('select sum(v) as s from t').all([])).toEqual([{ s: 3 }]);
    expect(prepared).toBe(3); // the create statement was evicted, the insert kept
    db.prepare('insert into t (v) values (?)').run([3]);
    expect(prepared).toBe(3);
    db.prepare('create table if not exists t (v integer)').run([]);
    expect(db.prepare('select sum(v) as s from t').all([])).toEqual([{ s: 6 }]);
    db.close();
  });
});

describe('rows read as arrays', () => {
  it('gives the same objects as better-sqlite3, duplicate names, nulls, iteration and writes included', () => {
    const raw = new SQLite(':memory:');
    const db = withStatementCache(raw);
    db.prepare('create table t (id integer primary key, name text, note text)').run([]);
    expect(db.prepare('insert into t (name, note) values (?, ?)').run(['Склад', null]).changes).toBe(1);
    db.prepare('insert into t (name, note) values (?, ?)').run(['Продажи', 'x']);
    const sql = 'select t.id, t.name, t.note, u.name from t left join t as u on u.id = t.id + 1 order by t.id';
    const expected = raw.prepare(sql).all();
    expect(expected).toEqual([
      { id: 1, name: 'Продажи', note: null },
      { id: 2, name: null, note: 'x' },
    ]);
    expect(db.prepare(sql).all([])).toEqual(expected);
    expect([...db.prepare(sql).iterate([])]).toEqual(expected);
    expect(db.prepare('select count(*) as n from t where name = ?').all(['Склад'])).toEqual([{ n: 1 }]);
    // A column added later shows in the same statement text read again.
    expect(db.prepare('select * from t where id = ?').all([1])).toEqual([{ id: 1, name: 'Склад', note: null }]);
    db.prepare('alter table t add column extra integer').run([]);
    expect(db.prepare('select * from t where id = ?').all([1])).toEqual([
      { id: 1, name: 'Склад', note: null, extra: null },
    ]);
    db.close();
  });
});

describe('values converted while the rows are built', () => {
  it('gives booleans and parsed JSON by column name, once, as the values plugin would', async () => {
    const raw = new SQLite(':memory:');
    const db = withStatementCache(raw, 10, sqliteColumnConversion);
    db.prepare('create table t (is_correct integer, answer_ids text, name text)').run([]);
    db.prepare('insert into t values (?, ?, ?)').run([1, '[3,1]', '{"a":1}']);
    const rows = db.prepare('select is_correct, answer_ids, name from t').all([]) as unknown[];
    expect(rows).toEqual([{ is_correct: true, answer_ids: [3, 1], name: '{"a":1}' }]);
    expect((rows as { [ROWS_CONVERTED]?: true })[ROWS_CONVERTED]).toBe(true);
    // Iterated rows stay raw: the plugin converts them.
    expect([...db.prepare('select is_correct, answer_ids from t').iterate([])]).toEqual([
      { is_correct: 1, answer_ids: '[3,1]' },
    ]);
    db.close();

    // Through Kysely: a JSON column holding a JSON string is parsed once, not twice.
    const k = connect({ sqliteFile: ':memory:' });
    await sql`create table t (is_correct integer, snapshot text)`.execute(k.kysely);
    await sql`insert into t values (0, ${JSON.stringify('текст')})`.execute(k.kysely);
    const read = await sql<{ is_correct: boolean; snapshot: string }>`select is_correct, snapshot from t`.execute(
      k.kysely,
    );
    expect(read.rows).toEqual([{ is_correct: false, snapshot: 'текст' }]);
    await k.close();
  });
});
