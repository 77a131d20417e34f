import type { StoredSco } from '../../db/schema.js';
import type { PackageRow, RunRow, ScormRepository } from './repository.js';

export type ItemStatus = 'completed' | 'failed' | 'in_progress' | 'not_started';

/** A learner's result of one SCORM item in a cycle, as every screen shows it. */
export interface ItemResult {
  status: ItemStatus;
  /** Percent: the mean of the SCOs' reported scores; null when none reported one. */
  score: number | null;
  /** The package version the result comes from (null: not started). */
  version: number | null;
  /** The newest run of each SCO of that version. */
  runs: Map<string, RunRow>;
}

export const NOT_STARTED: ItemResult = { status: 'not_started', score: null, version: null, runs: new Map() };

/**
 * A result from a learner's runs of one lesson in the cycle (newest first): the version of the newest
 * run counts, each of its SCOs by its newest run. Done when every launchable item of that version is
 * done; failed when one reported failure; else in progress (docs/rules.md §SCORM packages).
 */
export function summarize(runs: readonly RunRow[], pack: Pick<PackageRow, 'version' | 'scos'> | undefined): ItemResult {
  const newest = runs[0];
  if (!newest || !pack) return NOT_STARTED;
  const bySco = new Map<string, RunRow>();
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
    const out = new Map<number, ItemResult>();
    if (lessonIds.length === 0) return out;
    const runs = (await this.repo.runsOf([userId], lessonIds)).filter((r) => since === null || r.started_at >= since);
    const packages = new Map<number, PackageRow>();
    for (const id of new Set(runs.map((r) => r.package_id))) {
      const pack = await this.repo.packageById(id);
      if (pack) packages.set(id, pack);
    }
    for (const lessonId of lessonIds) {
      const own = runs.filter((r) => r.lesson_id === lessonId);
      out.set(lessonId, summarize(own, own[0] && packages.get(own[0].package_id)));
    }
    return out;
  }
}
