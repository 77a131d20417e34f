/**
 * The import of 10 000 employees from a spreadsheet (BENCH_IMPORT=1, issue 32), after an
 * organisation's HTTP runs: the application built in this process on the same database, the file
 * sent through its real route as a browser sends it (multipart). Half the rows are employees the
 * company has (a new position each, so they change), half are new. Timed: the dry run, applying it,
 * and the dry run of the same file again (everything unchanged). Targets: a dry run < 5 s, applying
 * < 10 s.
 */
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import ExcelJS from 'exceljs';
import { buildApp, type App } from '../app.js';
import { loadConfig } from '../config.js';
import { systemClock } from '../platform/clock.js';
import type { FreshDatabase } from './database.js';
import { seedSessions } from './organisation.js';

const ROWS = 10_000;
const BOUNDARY = '----benchImportBoundary';

async function spreadsheet(people: { email: string; last: string; first: string; department: string }[]) {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Сотрудники');
  sheet.addRow(['Фамилия', 'Имя', 'Email', 'Отдел', 'Должность', 'Роль']);
  for (const p of people) sheet.addRow([p.last, p.first, p.email, p.department, 'Специалист по импорту', '']);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

function multipart(file: Buffer): Buffer {
  return Buffer.concat([
    Buffer.from(
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="people.xlsx"\r\nContent-Type: application/octet-stream\r\n\r\n`,
    ),
    file,
    Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
  ]);
}

async function timed(label: string, call: () => Promise<{ statusCode: number; body: string }>) {
  const started = performance.now();
  const res = await call();
  const seconds = (performance.now() - started) / 1000;
  if (res.statusCode >= 300) throw new Error(`${label}: ${res.statusCode} ${res.body.slice(0, 300)}`);
  return { seconds, body: JSON.parse(res.body) as { data: { id: number; counts: Record<string, number> } } };
}

export async function importTiming(database: FreshDatabase, secret: string, adminId: number): Promise<string> {
  const db = database.connect();
  const config = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: database.dir,
    WEB_DIST: join(database.dir, 'none'),
    LOGIN_DOMAIN: 'bench.local',
  });
  const app: App = await buildApp({ config, db, clock: systemClock, secret });
  try {
    await app.ready();
    const [headers] = await seedSessions(db, [adminId], secret);
    const existing = await db.kysely
      .selectFrom('users')
      .innerJoin('departments', 'departments.id', 'users.department_id')
      .select(['users.email', 'users.last_name', 'users.first_name', 'departments.name'])
      .where('users.deleted_at', 'is', null)
      .orderBy('users.id')
      .limit(ROWS / 2)
      .execute();
    const people = [
      ...existing.map((u) => ({ email: u.email, last: u.last_name, first: u.first_name, department: u.name })),
      ...Array.from({ length: ROWS - existing.length }, (_, i) => ({
        email: `imported${i + 1}@bench.local`,
        last: 'Импортов',
        first: `Сотрудник ${i + 1}`,
        department: existing[i % existing.length]?.name ?? '',
      })),
    ];
    const body = multipart(await spreadsheet(people));
    const request = { ...headers, 'content-type': `multipart/form-data; boundary=${BOUNDARY}` };
    const preview = () =>
      timed('dry run', () =>
        app.inject({ method: 'POST', url: '/api/admin/people-import', headers: request, payload: body }),
      );
    const first = await preview();
    const applied = await timed('apply', () =>
      app.inject({
        method: 'POST',
        url: `/api/admin/people-import/${first.body.data.id}/apply`,
        headers: headers ?? {},
      }),
    );
    const again = await preview();
    const { create, update } = first.body.data.counts;
    const unchanged = again.body.data.counts.unchanged;
    return (
      `import of ${ROWS.toLocaleString('en-US')} rows (targets: dry run < 5 s, applying < 10 s): ` +
      `dry run ${first.seconds.toFixed(1)} s (${create} new, ${update} changed), applying ${applied.seconds.toFixed(1)} s, ` +
      `the same file again ${again.seconds.toFixed(1)} s (${unchanged} unchanged)`
    );
  } finally {
    await app.close();
    await db.close();
  }
}
