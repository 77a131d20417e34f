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

/** The bound of a figure and whether it holds (never for a run without an answer), or undefined. */
export function bound(f: Figure): { text: string; ok: boolean } | undefined {
  const b = boundOf(f);
  return b && { ...b, ok: b.ok && f.result.n > 0 };
}

function boundOf(f: Figure): { text: string; ok: boolean } | undefined {
  const ratio = (100 * f.rate) / f.hello;
  const p99 = f.result.n === 0 ? Infinity : f.result.p99;
  const memory = COLD.includes(f.workload) ? f.memory < MEMORY_MB : true;
  const memoryText = COLD.includes(f.workload) ? `, < ${MEMORY_MB} MB` : '';
  const ratioBound = (min: number, maxP99: number) => ({
    text: `≥ ${min} %, p99 < ${maxP99} ms${memoryText}`,
    ok: ratio >= min && p99 < maxP99 && memory,
  });
  switch (f.workload) {
    case 'home-cold':
      return ratioBound(f.db === 'sqlite' ? 5 : 2.5, 50);
    case 'users-search':
      return ratioBound(2, 100);
    case 'catalogue-admin':
    case 'catalogue-admin-in-department':
    case 'catalogue-author':
      return ratioBound(3, 50);
    case 'users-pages':
      return { text: `< ${MEMORY_MB} MB`, ok: memory };
    case 'mix':
      return { text: 'p99 < 100 ms, no errors', ok: p99 < 100 && f.result.errors + f.result.failed === 0 };
    default:
      return undefined;
  }
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
    fmt(f.memory),
    b ? `${mark(b.ok)} (${b.text})` : '—',
    '',
  ]
    .join(' | ')
    .trim();
}

export const FIGURES_HEADER = [
  '| database | employees | log | workload | rate | hello | of hello | p50 ms | p99 ms | errors | RSS MB | bound |',
  '|---|---|---|---|---|---|---|---|---|---|---|---|',
].join('\n');

function kindsTable(kinds: Record<string, Latency>): string[] {
  return Object.entries(kinds)
    .sort(([, a], [, b]) => b.n - a.n)
    .map(([kind, k]) => `| \`${kind}\` | ${fmt(k.n)} | ${ms(k.p50)} | ${ms(k.p99)} | ${k.failed} |`);
}

/** The mix per kind of call, one table per run. */
export function mixTables(figures: readonly Figure[]): string {
  return figures
    .filter((f) => f.workload === 'mix')
    .map((f) =>
      [
        `Working-day mix, ${f.db === 'sqlite' ? 'SQLite' : 'PostgreSQL'}, ${fmt(f.employees)} employees, log ${f.level}: ` +
          `${fmt(f.rate)} req/s overall, p99 ${ms(f.result.p99)} ms, errors ${failures(f.result)}`,
        '',
        '| call | requests | p50 ms | p99 ms | non-2xx |',
        '|---|---|---|---|---|',
        ...kindsTable(f.result.kinds),
      ].join('\n'),
    )
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
