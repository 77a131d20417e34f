import SQLite from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { withStatementCache } from './statementCache.js';

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
