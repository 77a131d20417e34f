/**
 * The benchmark's figures as markdown tables (pasted into docs/performance.md), each next to the
 * bound issue 31 sets for it, PASS or FAIL.
 */
import type { BenchDb } from './database.js';
import type { ExamOutcome } from './exam.js';
import type { Latency, LoadResult } from './load.js';
import type { WorkloadName } from './workloads.js';

export interface Figure {
  db: BenchDb;
  employees: number;
  level: string;
  workload: WorkloadName;
  /** Page views (two calls) for the home workloads, requests otherwise; per second. */
  rate: number;
  hello: number;
  result: LoadResult;
  /** The paced run (`paceOf`): its offered rate in requests/s and what it measured. */
  paced?: { rate: number; result: LoadResult } | undefined;
  /** Highest RSS of the server process sampled during the run, MB. */
  memory: number;
}

export const LABELS: Partial<Record<WorkloadName, string>> = {
  'home-cold': 'home page-view, cold (every learner in turn)',
  'home-warm': 'home page-view, warm (the same 1 000 learners)',
  'users-pages': 'employees page, any page and order (admin)',
  'users-search': 'employees search (admin)',
  'catalogue-admin': 'catalogue `GET /api/courses` (admin)',
  'catalogue-admin-in-department': 'catalogue (admin in a department)',
  'catalogue-author': 'catalogue (author)',
  mix: 'working-day mix',
};
/** Runs whose memory the bound of 300 MB speaks of. */
export const COLD: readonly WorkloadName[] = ['home-cold', 'users-pages', 'users-search'];
const MEMORY_MB = 300;

export const unitsPerSecond = (workload: WorkloadName, r: LoadResult) =>
  (workload.startsWith('home-') ? r.n / 2 : r.n) / r.seconds;

const ms = (v: number) => (v >= 100 ? v.toFixed(0) : v.toFixed(1));
const fmt = (n: number) => Math.round(n).toLocaleString('en-US').replace(/,/g, ' ');
const mark = (ok: boolean) => (ok ? 'PASS' : 'FAIL');
const failures = (r: Pick<LoadResult, 'errors' | 'timeouts' | 'failed'>) =>
  r.errors + r.failed === 0 ? '0' : `${r.errors} (${r.timeouts} time-outs) + ${r.failed} non-2xx`;

/**
 * The throughput share of hello that a workload's bound asks for, in % (home: page views, two calls
 * each), and the latency bound (ms) that holds at that load. The mix has no throughput bound: its
 * latency is taken at 1 % of hello (about 160 calls/s here: a company of 10 000 at its busiest hour,
 * with one in ten people active and a call every 5–6 s each).
 */
const BOUNDS: Partial<Record<WorkloadName, (db: BenchDb) => { share?: number; pacedShare: number; p99: number }>> = {
  'home-cold': (db) => ({ share: db === 'sqlite' ? 5 : 2.5, pacedShare: db === 'sqlite' ? 5 : 2.5, p99: 50 }),
  'users-search': () => ({ share: 2, pacedShare: 2, p99: 100 }),
  'catalogue-admin': () => ({ share: 3, pacedShare: 3, p99: 50 }),
  'catalogue-admin-in-department': () => ({ share: 3, pacedShare: 3, p99: 50 }),
  'catalogue-author': () => ({ share: 3, pacedShare: 3, p99: 50 }),
  mix: () => ({ pacedShare: 1, p99: 100 }),
};

/**
 * The rate (requests/s, from all connections) of a workload's paced run, given the hello rate of the
 * same moment, or undefined for a workload without a latency bound. A latency taken at saturation
 * says little: with 64 connections always waiting, p99 is mostly time in line (Little's law: 64
 * connections at 1 000 answers/s wait 64 ms on average however fast each answer is). So each bound's
 * latency is taken at the load the bound asks for, with the requests paced at that rate.
 */
export function paceOf(workload: WorkloadName, db: BenchDb, hello: number): number | undefined {
  const b = BOUNDS[workload]?.(db);
  if (!b) return undefined;
  const callsPerUnit = workload.startsWith('home-') ? 2 : 1;
  return (b.pacedShare / 100) * hello * callsPerUnit;
}

/** The bound of a figure and whether it holds (never for a run without an answer), or undefined. */
export function bound(f: Figure): { text: string; ok: boolean } | undefined {
  const b = boundOf(f);
  return b && { ...b, ok: b.ok && f.result.n > 0 };
}

const clean = (r: LoadResult) => r.errors + r.failed === 0;

function boundOf(f: Figure): { text: string; ok: boolean } | undefined {
  const ratio = (100 * f.rate) / f.hello;
  const memory = COLD.includes(f.workload) ? f.memory < MEMORY_MB : true;
  const memoryText = COLD.includes(f.workload) ? `, < ${MEMORY_MB} MB` : '';
  if (f.workload === 'users-pages') return { text: `< ${MEMORY_MB} MB`, ok: memory };
  const b = BOUNDS[f.workload]?.(f.db);
  if (!b) return undefined;
  const paced = f.paced?.result;
  const p99 = !paced || paced.n === 0 ? Infinity : paced.p99;
  const share = b.share === undefined ? '' : `≥ ${b.share} %, `;
  return {
    text: `${share}p99 < ${b.p99} ms at ${b.pacedShare} %, no errors${memoryText}`,
    ok:
      (b.share === undefined || ratio >= b.share) &&
      p99 < b.p99 &&
      memory &&
      clean(f.result) &&
      !!paced &&
      clean(paced),
  };
}

export function figureLine(f: Figure): string {
  const b = bound(f);
  const unit = f.workload.startsWith('home-') ? 'views/s' : 'req/s';
  return [
    '',
    f.db === 'sqlite' ? 'SQLite' : 'PostgreSQL',
    fmt(f.employees),
    f.level,
    LABELS[f.workload] ?? f.workload,
    `${fmt(f.rate)} ${unit}`,
    `${fmt(f.hello)}/s`,
    `${((100 * f.rate) / f.hello).toFixed(1)} %`,
    // No answer within the run: every request took longer (autocannon drops those still in flight).
    f.result.n === 0 ? '—' : ms(f.result.p50),
    f.result.n === 0 ? `> ${(f.result.seconds * 1000).toFixed(0)}` : ms(f.result.p99),
    failures(f.result),
    f.paced ? `${fmt(f.paced.rate)}/s` : '—',
    f.paced ? pacedLatency(f.paced.result) : '—',
    f.paced ? failures(f.paced.result) : '—',
    fmt(f.memory),
    b ? `${mark(b.ok)} (${b.text})` : '—',
    '',
  ]
    .join(' | ')
    .trim();
}

const pacedLatency = (r: LoadResult) =>
  r.n === 0 ? `— / > ${(r.seconds * 1000).toFixed(0)}` : `${ms(r.p50)} / ${ms(r.p99)}`;

export const FIGURES_HEADER = [
  '| database | employees | log | workload | rate | hello | of hello | p50 ms | p99 ms | errors | paced at | paced p50 / p99 ms | paced errors | RSS MB | bound |',
  '|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|',
].join('\n');

function kindsTable(kinds: Record<string, Latency>): string[] {
  return Object.entries(kinds)
    .sort(([, a], [, b]) => b.n - a.n)
    .map(([kind, k]) => `| \`${kind}\` | ${fmt(k.n)} | ${ms(k.p50)} | ${ms(k.p99)} | ${k.failed} |`);
}

/** The mix per kind of call, one table per run: the paced run (the bound's), then at saturation. */
export function mixTables(figures: readonly Figure[]): string {
  const table = (title: string, r: LoadResult) =>
    [
      title,
      '',
      '| call | requests | p50 ms | p99 ms | non-2xx |',
      '|---|---|---|---|---|',
      ...kindsTable(r.kinds),
    ].join('\n');
  return figures
    .filter((f) => f.workload === 'mix')
    .flatMap((f) => {
      const at = `${f.db === 'sqlite' ? 'SQLite' : 'PostgreSQL'}, ${fmt(f.employees)} employees, log ${f.level}`;
      return [
        ...(f.paced
          ? [
              table(
                `Working-day mix, ${at}, paced at ${fmt(f.paced.rate)} req/s: p99 ${ms(f.paced.result.p99)} ms, errors ${failures(f.paced.result)}`,
                f.paced.result,
              ),
            ]
          : []),
        table(
          `Working-day mix, ${at}, at saturation: ${fmt(f.rate)} req/s, p99 ${ms(f.result.p99)} ms, errors ${failures(f.result)}`,
          f.result,
        ),
      ];
    })
    .join('\n\n');
}

export function examTable(runs: readonly (ExamOutcome & { db: BenchDb; level: string })[]): string {
  if (runs.length === 0) return '';
  const lines = runs.map((e) => {
    const r = e.result;
    const worst = Math.max(...Object.values(r.kinds).map((k) => k.p99));
    const perCall = Object.entries(r.kinds)
      .map(([kind, k]) => `${kind.replace(/^(GET|POST) \/api\//, '')} ${ms(k.p50)}/${ms(k.p99)}`)
      .join('; ');
    const ok = worst < 200 && e.problems.length === 0;
    return (
      `| ${e.db === 'sqlite' ? 'SQLite' : 'PostgreSQL'} | ${e.level} | ${fmt(e.learners)} | ${fmt(r.n / r.seconds)} req/s | ` +
      `${perCall} | ${failures(r)} | ${e.problems.length === 0 ? 'all equal' : `${e.problems.length} problems`} | ` +
      `${fmt(e.memory)} | ${mark(ok)} (p99 < 200 ms per call) |`
    );
  });
  return [
    '| database | log | learners | throughput | p50/p99 ms per call | errors | database check | RSS MB | bound |',
    '|---|---|---|---|---|---|---|---|---|',
    ...lines,
  ].join('\n');
}
