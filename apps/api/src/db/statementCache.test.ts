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
