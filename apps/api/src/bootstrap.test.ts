import { describe, expect, it } from 'vitest';
import { ensureFirstAdmin } from './bootstrap.js';
import { loadConfig } from './config.js';
import { migrateToLatest } from './db/migrate.js';
import { ManualClock } from './platform/clock.js';
import { verifyPassword } from './platform/passwords.js';
import { createTestDb, dialectName } from './test/harness.js';

describe(`first administrator (${dialectName})`, () => {
  const withDb = async (fn: (db: Awaited<ReturnType<typeof createTestDb>>['db']) => Promise<void>) => {
    const { db, drop } = await createTestDb();
    try {
      await migrateToLatest(db.kysely, db.kind, db.schema);
      await fn(db);
    } finally {
      await drop();
    }
  };

  it('is admin@<LOGIN_DOMAIN> with a generated password when nothing is configured, once', async () => {
    await withDb(async (db) => {
      const config = loadConfig({ LOGIN_DOMAIN: 'acme.ru' });
      const first = await ensureFirstAdmin(db.kysely, config, new ManualClock());
      expect(first?.email).toBe('admin@acme.ru');
      expect(first?.generatedPassword).toMatch(/^[A-Za-z0-9]{16}$/);
      const row = await db.kysely
        .selectFrom('users')
        .innerJoin('roles', 'roles.id', 'users.role_id')
        .select(['users.password_hash', 'roles.code'])
        .executeTakeFirstOrThrow();
      expect(row.code).toBe('admin');
      expect(row.password_hash).toMatch(/^\$argon2id\$/);
      expect(await verifyPassword(row.password_hash, first?.generatedPassword ?? '')).toBe(true);
      expect(await ensureFirstAdmin(db.kysely, config, new ManualClock())).toBeNull();
      expect(await db.kysely.selectFrom('users').select('id').execute()).toHaveLength(1);
    });
  });

  it('uses ADMIN_EMAIL and ADMIN_PASSWORD when set', async () => {
    await withDb(async (db) => {
      const config = loadConfig({ ADMIN_EMAIL: 'Boss@Acme.ru', ADMIN_PASSWORD: 'Long-enough-1' });
      const first = await ensureFirstAdmin(db.kysely, config, new ManualClock());
      expect(first).toEqual({ email: 'boss@acme.ru', generatedPassword: null });
      const row = await db.kysely.selectFrom('users').select('password_hash').executeTakeFirstOrThrow();
      expect(await verifyPassword(row.password_hash, 'Long-enough-1')).toBe(true);
    });
  });
});

describe('configuration', () => {
  it('has defaults and rejects bad values with a clear message', () => {
    const c = loadConfig({});
    expect(c.port).toBe(3000);
    expect(c.dataDir).toMatch(/data$/);
    expect(c.databaseUrl).toBeUndefined();
    expect(() => loadConfig({ PORT: 'abc' })).toThrow(/PORT/);
    expect(() => loadConfig({ LOGIN_DOMAIN: 'not a domain' })).toThrow(/LOGIN_DOMAIN/);
  });
});
