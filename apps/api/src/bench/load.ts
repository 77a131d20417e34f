/**
 * The load process: `node dist/bench/load.js <spec.json>` runs one workload (workloads.ts) against
 * one server with autocannon, in a process of its own so that the client's ceiling is not the
 * server's. A warm-up run first (not counted; the server's code compiled, its connections to the
 * database open), then, once the server has answered the warm-up's last requests, the measured run, by duration or, for the exam spike, by a number of
 * requests per connection. Writes its figures as JSON on stdout: requests, errors, time-outs,
 * answers that were not 2xx, latency p50/p99 overall and per kind of call (the route), and the first
 * failures with their answers.
 */
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import autocannon, { type Request } from 'autocannon';
import { pacedRun } from './paced.js';
import { settle } from './processes.js';
import { workload, type Plan, type WorkloadName } from './workloads.js';

export interface LoadSpec {
  url: string;
  workload: WorkloadName;
  /** JSON of the workload's fixture (layout.ts `Fixture`, or the exam's). */
  fixtureFile: string;
  connections: number;
  seconds: number;
  warmupSeconds: number;
  /**
   * Requests per second from all connections together: a paced run, whose latency is the server's
   * answer time at that load. Without it, every connection sends its next request as soon as it has
   * an answer (saturation: the figure is throughput, and latency is mostly waiting in line).
   */
  rate?: number | undefined;
  /** The server's process: the measured run waits until the warm-up's last requests are answered. */
  serverPid?: number | undefined;
}

export interface Latency {
  n: number;
  p50: number;
  p99: number;
  /** Answers that were not 2xx. */
  failed: number;
}

export interface LoadResult extends Latency {
  seconds: number;
  errors: number;
  timeouts: number;
  kinds: Record<string, Latency>;
  failures: string[];
  /** What the workload reports besides (the exam: what each learner sent and was answered). */
  extra?: unknown;
}

export function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0;
}

function latency(samples: number[], failed: number): Latency {
  const sorted = samples.sort((a, b) => a - b);
  return { n: sorted.length, p50: percentile(sorted, 0.5), p99: percentile(sorted, 0.99), failed };
}

const KEPT_FAILURES = 20;

async function run(spec: LoadSpec, plan: Plan, phase: Plan['phases'][number]): Promise<LoadResult> {
  const samples = new Map<string, number[]>();
  const failed = new Map<string, number>();
  const failures: string[] = [];
  // Every answer is looked at: its kind (the route, named by the request's setup) and its status.
  const requests: Request[] = plan.requests.map((r) => ({
    ...r,
    onResponse: (status, body, context) => {
      if (status >= 300 && failures.length < KEPT_FAILURES)
        failures.push(`${String(context.kind)} → ${status} ${body.slice(0, 300)}`);
      r.onResponse?.(status, body, context);
    },
  }));
  const instance = autocannon({
    url: spec.url,
    connections: spec.connections,
    requests,
    timeout: 10,
    ...(phase.amount ? { amount: phase.amount } : { duration: phase.seconds }),
  });
  instance.on('response', (client, status, _bytes, ms) => {
    const kind = String(client.requestIterator.context.kind ?? spec.workload);
    const list = samples.get(kind) ?? [];
    list.push(ms);
    samples.set(kind, list);
    if (status >= 300) failed.set(kind, (failed.get(kind) ?? 0) + 1);
  });
  const started = performance.now();
  const result = await instance;
  const seconds = (performance.now() - started) / 1000;
  return summary(samples, failed, { seconds, errors: result.errors, timeouts: result.timeouts }, failures);
}

/** A phase of a paced run (paced.ts), in the same figures as autocannon's. */
async function pacedPhase(spec: LoadSpec & { rate: number }, plan: Plan, phase: Plan['phases'][number]) {
  const outcome = await pacedRun({
    url: spec.url,
    requests: plan.requests,
    connections: spec.connections,
    rate: spec.rate,
    seconds: phase.seconds ?? spec.seconds,
    kind: spec.workload,
    timeoutSeconds: 10,
  });
  const samples = new Map<string, number[]>();
  const failed = new Map<string, number>();
  const failures: string[] = [];
  for (const a of outcome.answers) {
    const list = samples.get(a.kind) ?? [];
    list.push(a.ms);
    samples.set(a.kind, list);
    if (a.status >= 300) {
      failed.set(a.kind, (failed.get(a.kind) ?? 0) + 1);
      if (failures.length < KEPT_FAILURES) failures.push(`${a.kind} → ${a.status}`);
    }
  }
  return summary(
    samples,
    failed,
    { seconds: outcome.seconds, errors: outcome.errors, timeouts: outcome.timeouts },
    failures,
  );
}

function summary(
  samples: Map<string, number[]>,
  failed: Map<string, number>,
  counts: { seconds: number; errors: number; timeouts: number },
  failures: string[],
): LoadResult {
  const kinds = Object.fromEntries([...samples].map(([kind, list]) => [kind, latency(list, failed.get(kind) ?? 0)]));
  const all = latency(
    [...samples.values()].flat(),
    [...failed.values()].reduce((a, b) => a + b, 0),
  );
  return { ...all, ...counts, kinds, failures };
}

async function main(): Promise<void> {
  const spec = JSON.parse(readFileSync(process.argv[2] ?? '', 'utf8')) as LoadSpec;
  // Hello needs no fixture (at 100 000 employees it is 25 MB of sessions).
  const fixture: unknown = spec.workload === 'hello' ? {} : JSON.parse(readFileSync(spec.fixtureFile, 'utf8'));
  const plan = workload(spec.workload, fixture, spec);
  let result: LoadResult | undefined;
  for (const [i, phase] of plan.phases.entries()) {
    if (i > 0) await settle(spec.serverPid);
    const { rate } = spec;
    result = rate ? await pacedPhase({ ...spec, rate }, plan, phase) : await run(spec, plan, phase);
  }
  if (!result) throw new Error('a workload without a phase');
  process.stdout.write(JSON.stringify({ ...result, extra: plan.extra?.() }));
}

main().catch((error: unknown) => {
  process.stderr.write(`load: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
