/**
 * The reminder pass (BENCH_REMINDERS=1), after an organisation's HTTP runs: the application built in
 * this process on the same database, its pass run twice. In the generated company half the courses'
 * deadlines have passed (assigned 40 days ago, 30–49 days to finish), so the first pass claims a
 * reminder for every unfinished enrollment of those (and the warnings and digests due) and queues
 * their mails in the outbox, REMINDERS_PER_PASS a transaction; the second finds nothing due. The
 * outbox delivers behind it (file transport, DATA_DIR/mail); what it has not delivered at shutdown
 * stays queued.
 */
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { buildApp } from '../app.js';
import { loadConfig } from '../config.js';
import { systemClock } from '../platform/clock.js';
import type { FreshDatabase } from './database.js';

export async function reminderPasses(database: FreshDatabase, secret: string): Promise<string> {
  const db = database.connect();
  const config = loadConfig({ NODE_ENV: 'test', DATA_DIR: database.dir, WEB_DIST: join(database.dir, 'none') });
  const app = await buildApp({ config, db, clock: systemClock, secret });
  try {
    await app.ready();
    const passes: string[] = [];
    for (const pass of ['first', 'second']) {
      const started = performance.now();
      const { reminders } = await app.jobs.remind();
      passes.push(`${pass} ${reminders} claimed in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    }
    return `reminder pass (target < 2 s): ${passes.join(', ')}`;
  } finally {
    await app.close();
    await db.close();
  }
}
