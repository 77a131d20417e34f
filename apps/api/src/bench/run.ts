/**
 * `npm run bench` (issue 31 item 1): the server measured from outside. For each size and database it
 * seeds a fresh organisation (organisation.ts), starts the built server and a bare Fastify hello
 * server as processes of their own and, at each log level, alternates them under the same load
 * process (autocannon, load.ts): hello, then a workload, hello, the next… so that every figure is a
 * ratio to the hello of the same moment. Then the exam spike on each database. Prints progress, then
 * markdown tables with each bound PASS/FAIL.
 *
 * BENCH_SIZES=10000,100000  BENCH_DB=sqlite,postgres  BENCH_LOG_LEVELS=warn,info  BENCH_DURATION=10
 * BENCH_WARMUP=2  BENCH_CONNECTIONS=64  BENCH_WORKLOADS=<names of workloads.ts, `exam` included>
 * EXAM_LEARNERS=2000  BENCH_PG_URL  BENCH_SEED_CHECK=1  BENCH_REMINDERS=1 (the reminder pass after each
 * organisation's runs, reminders.ts)  BENCH_IMPORT=1 (the import of 10 000 employees from a
 * spreadsheet after them, peopleImport.ts)  BENCH_DIRECTORY=1 (the sync of 50 000 directory entries
 * from a real slapd per database, after everything else, directory.ts; BENCH_WORKLOADS=none runs it
 * alone)  BENCH_SERVER_ARGS (node options of the server).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { randomToken } from '../platform/tokens.js';
import { freshDatabase, type BenchDb } from './database.js';
import { directoryBenchAvailable, directoryTable, directoryTiming, type DirectoryRun } from './directory.js';
import { examSpike, type ExamOutcome } from './exam.js';
import type { Fixture } from './layout.js';
import { analyze, seedOrganisation, seedSessions } from './organisation.js';
import { importTiming } from './peopleImport.js';
import { reminderPasses } from './reminders.js';
import { load, memoryOf, sampleMemory, serve, settle, stop, type Served } from './processes.js';
import {
  FIGURES_HEADER,
  LABELS,
  bound,
  examTable,
  figureLine,
  mixTables,
  paceOf,
  unitsPerSecond,
  type Figure,
} from './report.js';
import { WORKLOADS, type WorkloadName } from './workloads.js';

const list = (name: string, fallback: string) =>
  (process.env[name] ?? fallback)
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
const SIZES = list('BENCH_SIZES', '10000,100000').map(Number);
const DBS = list('BENCH_DB', 'sqlite,postgres').flatMap((d) =>
  d === 'both' ? ['sqlite', 'postgres'] : [d],
) as BenchDb[];
const LEVELS = list('BENCH_LOG_LEVELS', 'warn,info');
const SECONDS = Number(process.env.BENCH_DURATION ?? 10);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 2);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 64);
const CHOSEN = list('BENCH_WORKLOADS', WORKLOADS.filter((w) => w !== 'hello').join(',')).filter(
  (w) => w !== 'none',
) as WorkloadName[];
for (const w of CHOSEN) if (!WORKLOADS.includes(w)) throw new Error(`unknown workload ${w}: ${WORKLOADS.join(', ')}`);
/** The mix changes rows: it runs last, after the read-only workloads. */
const ORDER = CHOSEN.filter((w) => w !== 'exam' && w !== 'hello').sort(
  (a, b) => Number(a === 'mix') - Number(b === 'mix'),
);
const SECRET = `bench-${randomToken()}`;
/** The server as deployed, without the hourly reminder pass (measured apart, docs/performance.md). */
const SERVER_ENV = { APP_SECRET: SECRET, REMINDERS: 'off' };

const started = performance.now();
const clock = () => `${((performance.now() - started) / 1000).toFixed(0).padStart(5)} s`;
const say = (line: string) => console.log(`[${clock()}] ${line}`);
const dbName = (db: BenchDb) => (db === 'sqlite' ? 'SQLite' : 'PostgreSQL');

interface Block {
  db: BenchDb;
  employees: number;
  seedSeconds: number;
  progressRows: number;
  /** VmHWM of the server per log level. */
  peaks: Record<string, number>;
  reminders: string | undefined;
  imports: string | undefined;
}

async function measure(dir: string, served: Served, workload: WorkloadName, fixtureFile: string, rate?: number) {
  return load(dir, {
    url: served.url,
    workload,
    fixtureFile,
    connections: CONNECTIONS,
    seconds: SECONDS,
    warmupSeconds: WARMUP,
    serverPid: served.child.pid,
    rate,
  });
}

async function organisationBlock(db: BenchDb, employees: number, figures: Figure[]): Promise<Block> {
  const database = await freshDatabase(db, `org${employees}`);
  try {
    const t0 = performance.now();
    const conn = database.connect();
    const seeded = await seedOrganisation(conn, employees);
    const sessions = await seedSessions(
      conn,
      Array.from({ length: employees }, (_, i) => i + 1),
      SECRET,
    );
    const [admin, adminInDepartment, author] = await seedSessions(
      conn,
      [seeded.staff.admin, seeded.staff.adminInDepartment, seeded.staff.author],
      SECRET,
    );
    await analyze(conn);
    await conn.close();
    const seedSeconds = (performance.now() - t0) / 1000;
    say(
      `${dbName(db)}, ${employees} employees: ${seeded.progressRows} lesson records seeded in ${seedSeconds.toFixed(1)} s`,
    );
    const fixture: Fixture = {
      ...seeded.fixture,
      sessions,
      admin: admin ?? {},
      adminInDepartment: adminInDepartment ?? {},
      author: author ?? {},
    };
    const fixtureFile = join(database.dir, 'fixture.json');
    writeFileSync(fixtureFile, JSON.stringify(fixture));
    const hello = await serve(database.dir, {}, new URL('./hello.js', import.meta.url).pathname);
    const peaks: Record<string, number> = {};
    try {
      for (const level of LEVELS) {
        const server = await serve(database.dir, { ...database.env, ...SERVER_ENV, LOG_LEVEL: level });
        try {
          for (const workload of ORDER)
            figures.push(
              await measureOne(database.dir, hello, server, workload, fixtureFile, { db, employees, level }),
            );
          peaks[level] = memoryOf(server.child.pid).peak;
        } finally {
          await stop(server.child);
        }
      }
    } finally {
      await stop(hello.child);
    }
    const reminders = process.env.BENCH_REMINDERS === '1' ? await reminderPasses(database, SECRET) : undefined;
    if (reminders) say(`${dbName(db)}, ${employees} employees: ${reminders}`);
    const imports =
      process.env.BENCH_IMPORT === '1' ? await importTiming(database, SECRET, seeded.staff.admin) : undefined;
    if (imports) say(`${dbName(db)}, ${employees} employees: ${imports}`);
    return { db, employees, seedSeconds, progressRows: seeded.progressRows, peaks, reminders, imports };
  } finally {
    await database.drop();
  }
}

async function measureOne(
  dir: string,
  hello: Served,
  server: Served,
  workload: WorkloadName,
  fixtureFile: string,
  at: Pick<Figure, 'db' | 'employees' | 'level'>,
): Promise<Figure> {
  const backlog = await settle(server.child.pid);
  if (backlog > 2) say(`  the server was busy with the previous run's requests for ${backlog.toFixed(0)} s more`);
  const helloResult = await measure(dir, hello, 'hello', fixtureFile);
  const peak = sampleMemory(server.child.pid);
  const result = await measure(dir, server, workload, fixtureFile);
  const helloRate = helloResult.n / helloResult.seconds;
  // The latency bound's run: requests paced at the rate the bound asks for (report.ts `paceOf`).
  const pace = paceOf(workload, at.db, helloRate);
  let paced: Figure['paced'];
  if (pace !== undefined) {
    await settle(server.child.pid);
    paced = { rate: pace, result: await measure(dir, server, workload, fixtureFile, pace) };
  }
  const figure: Figure = {
    ...at,
    workload,
    rate: unitsPerSecond(workload, result),
    hello: helloRate,
    result,
    paced,
    memory: peak(),
  };
  say(figureLine(figure));
  for (const failure of result.failures.slice(0, 3)) say(`  ${failure}`);
  return figure;
}

async function main(): Promise<void> {
  say(
    `sizes ${SIZES.join(', ')}; ${DBS.join(', ')}; log ${LEVELS.join(', ')}; ${SECONDS} s per run after ${WARMUP} s of warm-up; ` +
      `${CONNECTIONS} connections; workloads ${CHOSEN.join(', ')}`,
  );
  const figures: Figure[] = [];
  const blocks: Block[] = [];
  for (const employees of SIZES)
    for (const db of DBS) {
      if (ORDER.length === 0) break;
      blocks.push(await organisationBlock(db, employees, figures));
    }
  const exams: (ExamOutcome & { db: BenchDb; level: string })[] = [];
  if (CHOSEN.includes('exam'))
    for (const db of DBS)
      for (const level of LEVELS) {
        const outcome = await examSpike(db, { ...SERVER_ENV, LOG_LEVEL: level }, CONNECTIONS, SECRET);
        exams.push({ ...outcome, db, level });
        say(`exam spike, ${dbName(db)}, log ${level}: seeded in ${outcome.seedSeconds.toFixed(1)} s`);
        say(
          examTable([{ ...outcome, db, level }])
            .split('\n')
            .at(-1) ?? '',
        );
        for (const problem of outcome.problems.slice(0, 5)) say(`  ${problem}`);
      }
  const directory: DirectoryRun[] = [];
  if (process.env.BENCH_DIRECTORY === '1') {
    if (!directoryBenchAvailable()) say('BENCH_DIRECTORY: slapd is not installed (apt-get install slapd), skipped');
    else
      for (const db of DBS) {
        say(`directory sync, ${dbName(db)}:`);
        directory.push(await directoryTiming(db, SECRET, say));
      }
  }

  const out = [
    `## Figures (${new Date().toISOString().slice(0, 10)}, ${CONNECTIONS} connections, ${SECONDS} s per run)`,
    '',
    ...(figures.length > 0 ? [FIGURES_HEADER, ...figures.map(figureLine)] : []),
    '',
    ...blocks.map(
      (b) =>
        `- ${dbName(b.db)}, ${b.employees} employees: seeded in ${b.seedSeconds.toFixed(0)} s (${b.progressRows} lesson records); ` +
        `server peak memory (VmHWM) ${Object.entries(b.peaks)
          .map(([level, mb]) => `${mb.toFixed(0)} MB at ${level}`)
          .join(', ')}${b.reminders ? `; ${b.reminders}` : ''}${b.imports ? `; ${b.imports}` : ''}`,
    ),
    '',
    mixTables(figures),
    '',
    examTable(exams),
    '',
    directoryTable(directory),
    '',
    `Run time ${clock().trim()}.`,
  ];
  console.log(`\n${out.join('\n').replace(/\n{3,}/g, '\n\n')}`);
  const failed = [
    ...figures.filter((f) => bound(f)?.ok === false).map((f) => `${LABELS[f.workload] ?? f.workload}`),
    ...exams.filter((e) => e.problems.length > 0).map(() => 'exam spike database check'),
  ];
  if (failed.length > 0) console.log(`\nBounds not met: ${[...new Set(failed)].join('; ')}`);
  // A failed database check of the exam is a bug, not a slow figure.
  if (exams.some((e) => e.problems.length > 0)) process.exitCode = 1;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
