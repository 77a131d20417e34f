import type { StoredSco } from '../../db/schema.js';
import type { PackageRow, RunSummary, ScormRepository } from './repository.js';

export type ItemStatus = 'completed' | 'failed' | 'in_progress' | 'not_started';

/** A learner's result of one SCORM item in a cycle, as every screen shows it. */
export interface ItemResult {
  status: ItemStatus;
  /** Percent: the mean of the SCOs' reported scores; null when none reported one. */
  score: number | null;
  /** The package version the result comes from (null: not started). */
  version: number | null;
  /** The newest run of each SCO of that version. */
  runs: Map<string, RunSummary>;
}

export const resultKey = (userId: number, lessonId: number) => `${userId}:${lessonId}`;

export const NOT_STARTED: ItemResult = { status: 'not_started', score: null, version: null, runs: new Map() };

/**
 * A result from a learner's runs of one lesson in the cycle (newest first): the version of the newest
 * run counts, each of its SCOs by its newest run. Done when every launchable item of that version is
 * done; failed when one reported failure; else in progress (docs/rules.md §SCORM packages).
 */
export function summarize(
  runs: readonly RunSummary[],
  pack: Pick<PackageRow, 'version' | 'scos'> | undefined,
): ItemResult {
  const newest = runs[0];
  if (!newest || !pack) return NOT_STARTED;
  const bySco = new Map<string, RunSummary>();
  for (const run of runs) {
    if (run.package_id === newest.package_id && !bySco.has(run.sco)) bySco.set(run.sco, run);
  }
  const scos: StoredSco[] = pack.scos;
  const states = scos.map((s) => bySco.get(s.identifier)?.status);
  const status: ItemStatus = states.every((s) => s === 'completed')
    ? 'completed'
    : states.includes('failed')
      ? 'failed'
      : 'in_progress';
  const scores = [...bySco.values()].map((r) => r.score).filter((s): s is number => s !== null);
  const score = scores.length ? Math.round(scores.reduce((a, b) => a + b, 0) / scores.length) : null;
  return { status, score, version: pack.version, runs: bySco };
}

/** Results of SCORM items for the pages that list items (the course page, analytics). */
export class ScormResults {
  constructor(private readonly repo: ScormRepository) {}

  /** One learner's results of these lessons, counting runs started since `since` (null: all). */
  async of(userId: number, lessonIds: readonly number[], since: string | null): Promise<Map<number, ItemResult>> {
    const results = await this.many([userId], lessonIds, () => since);
    return new Map(lessonIds.map((id) => [id, results.get(resultKey(userId, id)) ?? NOT_STARTED]));
  }

  /**
   * Results of these learners and lessons (keyed by `resultKey`), each counting the runs started
   * since its own cycle's start: one read of the runs, one of each version they name.
   */
  async many(
    userIds: readonly number[],
    lessonIds: readonly number[],
    sinceOf: (userId: number, lessonId: number) => string | null,
  ): Promise<Map<string, ItemResult>> {
    const out = new Map<string, ItemResult>();
    const grouped = new Map<string, RunSummary[]>();
    for (const run of await this.repo.runsOf(userIds, lessonIds)) {
      const since = sinceOf(run.user_id, run.lesson_id);
      if (since !== null && run.started_at < since) continue;
      const key = resultKey(run.user_id, run.lesson_id);
      const list = grouped.get(key);
      if (list) list.push(run);
      else grouped.set(key, [run]);
    }
    const packages = new Map<number, PackageRow>();
    for (const id of new Set([...grouped.values()].map((runs) => runs[0]?.package_id ?? 0))) {
      const pack = await this.repo.packageById(id);
      if (pack) packages.set(id, pack);
    }
    for (const [key, runs] of grouped) out.set(key, summarize(runs, runs[0] && packages.get(runs[0].package_id)));
    return out;
  }
}
