/**
 * The directory sync at company scale (BENCH_DIRECTORY=1, issue 32: "paged search, so 50 000 entries
 * sync"): a real OpenLDAP (test/slapd.ts) in a temporary folder on a free port, loaded offline with
 * BENCH_DIRECTORY_ENTRIES people (50 000) under 260 OUs (directoryTree.ts), its reader allowed 1 000
 * entries a search and refused any larger page, as Active Directory's MaxPageSize; LDAP_PAGE_SIZE=1000.
 * The application runs in a process of its own (directoryServer.ts) on a fresh database with one
 * admin, and is asked, step by step: the directory read alone; the first dry run (everyone new) and
 * applying it; a dry run with nothing changed, then the scheduled pass with nothing changed; after
 * BENCH_DIRECTORY_CHANGES (500) people changed in the directory, the dry run and applying it. Each
 * step's wall time, its process's peak RSS and the statements it wrote; the counts are checked, and
 * a sync with nothing changed must write nothing but its own dry run.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { Client } from 'ldapts';
import { prepareDatabase } from '../bootstrap.js';
import { hashPassword } from '../platform/passwords.js';
import { randomToken } from '../platform/tokens.js';
import { BASE_DN, PEOPLE_DN, READER_DN, READER_PASSWORD, SLAPD, startSlapd, type Slapd } from '../test/slapd.js';
import { freshDatabase, type BenchDb, type FreshDatabase } from './database.js';
import type { StepReply, StepRequest, StepResult } from './directoryServer.js';
import { OUS, changeTree, directoryTree, type TreeChanges } from './directoryTree.js';
import { seedSessions } from './organisation.js';

const ENTRIES = Number(process.env.BENCH_DIRECTORY_ENTRIES ?? 50_000);
const CHANGES = Number(process.env.BENCH_DIRECTORY_CHANGES ?? 500);
/** What the reader may have a page (and a search without paging), and what the sync asks for. */
const PAGE = 1000;
/** What a sync stores of itself: its dry run's head and rows. Anything else written is the company's. */
const OWN_TABLES = new Set(['people_batches', 'people_batch_rows', 'activity mark']);

export interface DirectoryRun {
  db: BenchDb;
  entries: number;
  loadSeconds: number;
  paging: string;
  steps: (StepResult & { label: string })[];
  changes: TreeChanges;
  /** The machine's 1-minute load average at the start and the end (other work shares the cores). */
  load: [number, number];
}

const mb = (n: number) => n.toFixed(0);

export const directoryBenchAvailable = () => existsSync(SLAPD);

/** The reader's limits as the sync meets them: a plain search and a page over the limit both refused. */
async function checkPaging(slapd: Slapd): Promise<string> {
  const client = new Client({ url: slapd.url });
  await client.bind(READER_DN, READER_PASSWORD);
  const refused = async (paged: { pageSize: number } | undefined) => {
    const search = client.search(PEOPLE_DN, { scope: 'sub', filter: '(objectClass=inetOrgPerson)', paged });
    return search.then(
      () => {
        throw new Error(`slapd answered a search ${paged ? `paged by ${paged.pageSize}` : 'without paging'}`);
      },
      (error: unknown) => (error instanceof Error ? error.constructor.name : String(error)),
    );
  };
  try {
    const plain = await refused(undefined);
    const large = await refused({ pageSize: PAGE + 1 });
    return `a search without paging: ${plain}; a page of ${PAGE + 1}: ${large}`;
  } finally {
    await client.unbind();
  }
}

async function seedAdmin(database: FreshDatabase, secret: string) {
  const db = database.connect();
  try {
    await prepareDatabase(db);
    const role = await db.kysely.selectFrom('roles').select('id').where('code', '=', 'admin').executeTakeFirstOrThrow();
    const { id } = await db.kysely
      .insertInto('users')
      .values({
        first_name: 'Синхронизатор',
        last_name: 'Админов',
        email: 'admin@bench.local',
        password_hash: await hashPassword(randomToken()),
        role_id: role.id,
        department_id: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const [headers] = await seedSessions(db, [id], secret);
    return headers ?? {};
  } finally {
    await db.close();
  }
}

/** The server process, and a call that runs one step in it. */
async function startServer(database: FreshDatabase, slapd: Slapd, secret: string, headers: Record<string, string>) {
  const child: ChildProcess = fork(new URL('./directoryServer.js', import.meta.url).pathname, [], {
    execArgv: ['--expose-gc', ...(process.env.BENCH_SERVER_ARGS?.split(' ').filter(Boolean) ?? [])],
    env: {
      ...process.env,
      ...database.env,
      BENCH_SECRET: secret,
      BENCH_HEADERS: JSON.stringify(headers),
      LDAP_URL: slapd.url,
      LDAP_BIND_DN: READER_DN,
      LDAP_BIND_PASSWORD: READER_PASSWORD,
      LDAP_BASE_DN: BASE_DN,
      LDAP_USER_FILTER: '(objectClass=inetOrgPerson)',
      LDAP_DISABLED_FILTER: '(employeeType=disabled)',
      LDAP_ATTR_ID: 'entryUUID',
      LDAP_DEPARTMENT_FROM_OU: 'true',
      LDAP_PAGE_SIZE: String(PAGE),
    },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  await new Promise<void>((resolve, reject) => {
    child.once('message', () => resolve());
    child.once('exit', (code) => reject(new Error(`the directory bench's server exited with ${code}`)));
  });
  const step = (request: StepRequest) =>
    new Promise<StepResult>((resolve, reject) => {
      child.once('message', (reply: StepReply) =>
        reply.ok ? resolve(reply.result) : reject(new Error(`${request.step}: ${reply.error}`)),
      );
      child.send(request);
    });
  const stop = async () => {
    if (child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.send('stop');
    await exited;
  };
  return { step, stop };
}

const counted = (r: StepResult) => r.batch?.counts ?? { create: 0, update: 0, unchanged: 0, delete: 0, error: 0 };

function expectCounts(r: StepResult, expected: Partial<ReturnType<typeof counted>>): void {
  const counts = counted(r);
  for (const [action, n] of Object.entries(expected) as [keyof typeof counts, number][])
    if (counts[action] !== n) throw new Error(`${r.step}: ${action} ${counts[action]}, expected ${n}`);
}

function expectApplied(r: StepResult): void {
  if (r.batch?.status !== 'applied') throw new Error(`${r.step}: the batch is ${r.batch?.status}, not applied`);
}

/** Writes of a step beyond the sync's own dry run (people, departments, audit, enrollments…). */
export const companyWrites = (r: StepResult) =>
  Object.entries(r.writes)
    .filter(([table]) => !OWN_TABLES.has(table))
    .reduce((n, [, count]) => n + count, 0);

export async function directoryTiming(db: BenchDb, secret: string, say: (line: string) => void): Promise<DirectoryRun> {
  const loadAtStart = loadavg()[0] ?? 0;
  const t0 = performance.now();
  const slapd = await startSlapd({ pageLimit: PAGE, entries: directoryTree(ENTRIES) });
  const loadSeconds = (performance.now() - t0) / 1000;
  let database: FreshDatabase | undefined;
  let server: Awaited<ReturnType<typeof startServer>> | undefined;
  try {
    const paging = await checkPaging(slapd);
    say(
      `directory of ${ENTRIES} people and ${OUS} OUs loaded and slapd started in ${loadSeconds.toFixed(1)} s; ${paging}`,
    );
    database = await freshDatabase(db, 'directory');
    server = await startServer(database, slapd, secret, await seedAdmin(database, secret));
    const steps: DirectoryRun['steps'] = [];
    const run = async (label: string, request: StepRequest) => {
      const result = { ...(await server?.step(request)), label } as StepResult & { label: string };
      steps.push(result);
      for (const t of result.trace ?? [])
        say(`    ${(t.ms / 1000).toFixed(2).padStart(6)} s ${String(t.n).padStart(6)}× ${t.statement}`);
      say(
        `  ${label}: ${result.seconds.toFixed(1)} s, peak RSS ${mb(result.peak)} MB (${mb(result.rssBefore)} before), ` +
          `heap after a full collection ${mb(result.heapBefore)} → ${mb(result.heapAfter)} MB`,
      );
      return result;
    };

    const read = await run('reading the directory alone (paged, two searches)', { step: 'read' });
    if (read.entries?.total !== ENTRIES) throw new Error(`read ${read.entries?.total} entries, not ${ENTRIES}`);
    const first = await run('first sync: dry run', { step: 'dry-run' });
    expectCounts(first, { create: ENTRIES, update: 0, delete: 0, error: 0 });
    expectApplied(await run('first sync: applying it', { step: 'apply', batchId: first.batch?.id ?? 0 }));
    const again = await run('nothing changed: dry run', { step: 'dry-run' });
    expectCounts(again, { create: 0, update: 0, delete: 0, error: 0, unchanged: ENTRIES });
    const scheduled = await run('nothing changed: the scheduled pass (dry run, its rows dropped)', {
      step: 'scheduled',
    });
    expectCounts(scheduled, { create: 0, update: 0, delete: 0, error: 0 });
    for (const r of [again, scheduled])
      if (companyWrites(r) > 0) throw new Error(`${r.label} wrote ${JSON.stringify(r.writes)}`);

    const tree = await slapd.admin();
    const changes = await changeTree(tree, ENTRIES, CHANGES).finally(() => tree.unbind());
    const changed = await run(`${CHANGES} changed: dry run`, { step: 'dry-run' });
    expectCounts(changed, {
      create: 0,
      update: changes.retitled + changes.moved,
      delete: changes.disabled + changes.removed,
      error: 0,
    });
    expectApplied(await run(`${CHANGES} changed: applying it`, { step: 'apply', batchId: changed.batch?.id ?? 0 }));
    const load: [number, number] = [loadAtStart, loadavg()[0] ?? 0];
    return { db, entries: ENTRIES, loadSeconds, paging, steps, changes, load };
  } finally {
    await server?.stop();
    await database?.drop();
    await slapd.stop();
  }
}

/** The runs as a markdown table: a row per step, a column pair (time, peak RSS) per database. */
export function directoryTable(runs: readonly DirectoryRun[]): string {
  const first = runs[0];
  if (!first) return '';
  const name = (db: BenchDb) => (db === 'sqlite' ? 'SQLite' : 'PostgreSQL');
  const writes = (r: StepResult) =>
    Object.entries(r.writes)
      .filter(([table]) => table !== 'activity mark')
      .map(([table, n]) => `${table} ${n}`)
      .join(', ') || '—';
  const same = runs.every((r) => r.steps.every((x, i) => writes(x) === writes(first.steps[i] ?? x)));
  const loads = runs.map((r) => `${name(r.db)} ${r.load.map((n) => n.toFixed(1)).join(' → ')}`).join(', ');
  return [
    `Directory sync, ${first.entries.toLocaleString('en-US')} entries, pages of ${PAGE} (${first.paging}); ` +
      `load average (1 min) ${loads}`,
    '',
    `| step | counts | ${runs.map((r) => `${name(r.db)} s | ${name(r.db)} peak RSS MB (before)`).join(' | ')} | statements that wrote (${same ? 'each database' : name(first.db)}) |`,
    `|---|---|${runs.map(() => '---|---|').join('')}---|`,
    ...first.steps.map((s, i) => {
      const c = s.batch?.counts;
      const counts = s.entries
        ? `${s.entries.total} entries, ${s.entries.disabled} disabled`
        : c
          ? `${c.create} new, ${c.update} changed, ${c.delete} deleted, ${c.unchanged} unchanged, ${c.error} errors`
          : '';
      const cells = runs.map((r) => {
        const x = r.steps[i];
        return x ? `${x.seconds.toFixed(1)} | ${mb(x.peak)} (${mb(x.rssBefore)})` : '— | —';
      });
      return `| ${s.label} | ${counts} | ${cells.join(' | ')} | ${writes(s)} |`;
    }),
  ].join('\n');
}
