import pg from 'pg';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { TEST_DATABASE_URL } from '../test/harness.js';
import { connect } from './connect.js';

describe.skipIf(!TEST_DATABASE_URL)('PostgreSQL connections (postgres)', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('opens every connection at start-up and keeps them through a quiet spell', async () => {
    const name = `lms-test-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
    const watcher = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await watcher.connect();
    const open = async () =>
      Number(
        (await watcher.query('select count(*) as n from pg_stat_activity where application_name = $1', [name])).rows[0]
          .n,
      );
    // pg-pool closes idle connections by timers: these are faked, so the quiet spell passes at once.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const db = connect({ databaseUrl: TEST_DATABASE_URL, applicationName: name });
    try {
      expect(await open()).toBe(0);
      await db.openConnections();
      expect(await open()).toBe(10);
      await vi.advanceTimersByTimeAsync(10 * 60_000);
      expect(await open()).toBe(10);
    } finally {
      vi.useRealTimers();
      await db.close();
      await watcher.end();
    }
  });
});
