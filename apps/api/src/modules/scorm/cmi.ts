import { SCORM_LIMITS, scorePercent, type ScormStandard } from '@lms/contract';
import type { StoredSco } from '../../db/schema.js';

/**
 * The SCORM run-time data model as the platform reads it (docs/rules.md §SCORM packages): what a
 * commit says (status, score, time, location, suspend data), what it means for our progress, and
 * what a resumed session is given. Pure functions over the JSON the runtime in the frame commits
 * (scorm-again's `{ cmi: {...} }`, every value a string as SCORM defines them).
 */

export type RunStatus = 'completed' | 'failed' | 'in_progress';

export interface CommitFacts {
  completion: string | null;
  success: string | null;
  score: { raw: number | null; min: number | null; max: number | null; scaled: number | null };
  progressMeasure: number | null;
  location: string | null;
  suspendData: string | null;
  exit: string | null;
  sessionSeconds: number;
  /** The CMI without what is recomputed at every launch (session time, exit, entry, total time). */
  kept: Record<string, unknown>;
}

type Tree = Record<string, unknown>;
const isTree = (v: unknown): v is Tree => typeof v === 'object' && v !== null && !Array.isArray(v);
const text = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);
const number = (v: unknown): number | null => {
  const t = text(v);
  if (t === null) return null;
  const n = Number(t);
  return Number.isFinite(n) ? n : null;
};

/** Why a commit is refused (answered to the runtime as a failed commit; nothing is stored). */
export class BadCommit extends Error {}

/** The facts of one commit; throws `BadCommit` for a body that is not the runtime's CMI. */
export function readCommit(standard: ScormStandard, body: unknown): CommitFacts {
  if (!isTree(body) || !isTree(body.cmi)) throw new BadCommit('no cmi object');
  const cmi = body.cmi;
  const suspendData = text(cmi.suspend_data);
  if (suspendData !== null && suspendData.length > SCORM_LIMITS.suspendDataChars) {
    throw new BadCommit('suspend data over the limit');
  }
  const kept: Tree = { ...cmi };
  for (const key of ['session_time', 'total_time', 'entry', 'exit']) delete kept[key];
  if (standard === '1.2') {
    const core = isTree(cmi.core) ? cmi.core : {};
    const score = isTree(core.score) ? core.score : {};
    kept.core = { ...core };
    for (const key of ['session_time', 'total_time', 'entry', 'exit']) delete (kept.core as Tree)[key];
    return {
      completion: text(core.lesson_status),
      success: null,
      score: { raw: number(score.raw), min: number(score.min), max: number(score.max), scaled: null },
      progressMeasure: null,
      location: text(core.lesson_location),
      suspendData,
      exit: text(core.exit),
      sessionSeconds: parseDuration('1.2', text(core.session_time)),
      kept,
    };
  }
  const score = isTree(cmi.score) ? cmi.score : {};
  return {
    completion: text(cmi.completion_status),
    success: text(cmi.success_status),
    score: { raw: number(score.raw), min: number(score.min), max: number(score.max), scaled: number(score.scaled) },
    progressMeasure: number(cmi.progress_measure),
    location: text(cmi.location),
    suspendData,
    exit: text(cmi.exit),
    sessionSeconds: parseDuration('2004', text(cmi.session_time)),
    kept,
  };
}

/**
 * What a SCO's data means for our progress. SCORM 1.2: 'passed' or 'completed' count, 'failed' does
 * not; with a mastery score in the manifest, a reported raw score decides (at or above it passes).
 * SCORM 2004: success decides when known (with a scaled passing score in the manifest, the scaled
 * score decides it); otherwise completion (with a completion threshold, the progress measure
 * decides it). A 'failed' SCO is not done, as a failed test is not.
 */
export function outcome(
  standard: ScormStandard,
  facts: CommitFacts,
  sco: Pick<StoredSco, 'masteryScore' | 'scaledPassingScore' | 'completionThreshold'>,
): { status: RunStatus; score: number | null; completion: string | null; success: string | null } {
  const score = scorePercent(facts.score);
  if (standard === '1.2') {
    const status = facts.completion;
    if (sco.masteryScore !== null && facts.score.raw !== null) {
      const passed = facts.score.raw >= sco.masteryScore;
      return {
        status: passed ? 'completed' : 'failed',
        score,
        completion: status,
        success: passed ? 'passed' : 'failed',
      };
    }
    const mapped: RunStatus =
      status === 'passed' || status === 'completed' ? 'completed' : status === 'failed' ? 'failed' : 'in_progress';
    return { status: mapped, score, completion: status, success: null };
  }
  let success = facts.success;
  if (sco.scaledPassingScore !== null && facts.score.scaled !== null) {
    success = facts.score.scaled >= sco.scaledPassingScore ? 'passed' : 'failed';
  }
  let completion = facts.completion;
  if (sco.completionThreshold !== null && facts.progressMeasure !== null) {
    completion = facts.progressMeasure >= sco.completionThreshold ? 'completed' : 'incomplete';
  }
  const status: RunStatus =
    success === 'passed'
      ? 'completed'
      : success === 'failed'
        ? 'failed'
        : completion === 'completed'
          ? 'completed'
          : 'in_progress';
  return { status, score, completion, success };
}

/** Seconds of a SCORM time span: 1.2 `HHHH:MM:SS.SS`, 2004 ISO 8601 `P…T…H…M…S`; 0 when unreadable. */
export function parseDuration(standard: ScormStandard, value: string | null): number {
  if (value === null) return 0;
  if (standard === '1.2') {
    const m = /^(\d{1,4}):(\d{2}):(\d{2}(?:\.\d{1,2})?)$/.exec(value);
    return m ? Math.round(Number(m[1]) * 3600 + Number(m[2]) * 60 + Number(m[3])) : 0;
  }
  const m = /^P(?:(\d+)Y)?(?:(\d+)M)?(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+(?:\.\d+)?)S)?)?$/.exec(value);
  if (!m || value === 'P' || value.endsWith('T')) return 0;
  const [y, mo, d, h, mi, s] = m.slice(1).map((part) => Number(part ?? 0));
  return Math.round(((((y ?? 0) * 365 + (mo ?? 0) * 30 + (d ?? 0)) * 24 + (h ?? 0)) * 60 + (mi ?? 0)) * 60 + (s ?? 0));
}

/** A time span as the standard writes it. */
export function formatDuration(standard: ScormStandard, seconds: number): string {
  const total = Math.max(0, Math.round(seconds));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  if (standard === '1.2') {
    const two = (n: number) => String(n).padStart(2, '0');
    return `${String(Math.min(h, 9999)).padStart(4, '0')}:${two(m)}:${two(s)}`;
  }
  return `PT${h}H${m}M${s}S`;
}

export interface ResumeInput {
  standard: ScormStandard;
  sco: StoredSco;
  learner: { id: number; firstName: string; lastName: string };
  /** The run's stored data (`launches` counts this one); null when there is none. */
  run: { cmi: unknown; exit: string | null; totalSeconds: number; launches: number } | null;
}

/**
 * The CMI a session starts from: what the package committed before (location, suspend data,
 * interactions, scores…), with what the LMS owns set by the LMS — the learner, credit and mode, the
 * manifest's thresholds and launch data, the total time so far, and `entry`: 'ab-initio' on the first
 * launch, 'resume' after an exit of 'suspend' (or 'logout' in 2004), else empty.
 */
export function resumeCmi({ standard, sco, learner, run }: ResumeInput): Tree {
  const stored = run && isTree(run.cmi) ? run.cmi : {};
  const entry =
    !run || run.launches <= 1
      ? 'ab-initio'
      : run.exit === 'suspend' || (standard === '2004' && run.exit === 'logout')
        ? 'resume'
        : '';
  const total = formatDuration(standard, run?.totalSeconds ?? 0);
  const name = `${learner.lastName}, ${learner.firstName}`;
  if (standard === '1.2') {
    const core = isTree(stored.core) ? stored.core : {};
    const studentData = isTree(stored.student_data) ? stored.student_data : {};
    return {
      ...stored,
      launch_data: sco.dataFromLms ?? '',
      core: {
        ...core,
        student_id: String(learner.id),
        student_name: name,
        credit: 'credit',
        lesson_mode: 'normal',
        entry,
        total_time: total,
        lesson_status: text(core.lesson_status) ?? 'not attempted',
      },
      student_data: { ...studentData, mastery_score: sco.masteryScore === null ? '' : String(sco.masteryScore) },
    };
  }
  return {
    ...stored,
    learner_id: String(learner.id),
    learner_name: name,
    credit: 'credit',
    mode: 'normal',
    entry,
    total_time: total,
    launch_data: sco.dataFromLms ?? '',
    ...(sco.scaledPassingScore === null ? {} : { scaled_passing_score: String(sco.scaledPassingScore) }),
    ...(sco.completionThreshold === null ? {} : { completion_threshold: String(sco.completionThreshold) }),
  };
}
