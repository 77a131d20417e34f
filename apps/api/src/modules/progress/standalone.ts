import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { UnitOfWork } from '../../db/unitOfWork.js';
import { systemClock, type Clock } from '../../platform/clock.js';
import { CoursesRepository } from '../courses/repository.js';
import { EnrollmentRepository } from '../enrollment/repository.js';
import { EnrollmentService } from '../enrollment/service.js';
import { EnrollmentSources } from '../enrollment/sources.js';
import { KeptCourseList } from './courseList.js';
import { DeadlineReads } from './deadlines.js';
import { KeptRankings } from './keptRankings.js';
import { LearningStateReads } from './reads.js';
import { ProgressRepository } from './repository.js';
import { LearningEngine } from './service.js';
import { LearningStates } from './states.js';

/**
 * The learning state over an executor outside the app (the start-up, seeders, tests that write rows
 * directly): the enrollment service that keeps the rows when sources change, the keeper itself, its
 * readers and the engine over them, wired as app.ts wires them.
 */
export function learningStatesOver(
  executor: Pick<UnitOfWork, 'db'> & Partial<Pick<UnitOfWork, 'run' | 'atEnd' | 'inUnit'>>,
  clock: Clock = systemClock,
) {
  const courses = new CoursesRepository(executor);
  const progress = new ProgressRepository(executor);
  const enrollments = new EnrollmentRepository(executor);
  const rankings = new KeptRankings(executor, clock);
  const states = new LearningStates(executor, courses, progress, enrollments, rankings, clock);
  const reads = new LearningStateReads(executor, courses, progress, enrollments, new KeptCourseList(executor), clock);
  const deadlines = new DeadlineReads(executor, courses, enrollments, reads, clock);
  const enrollment = new EnrollmentService(executor, new EnrollmentSources(executor), enrollments, states);
  const engine = new LearningEngine(progress, courses, enrollments, clock, states, reads, deadlines);
  return { enrollment, enrollments, states, rankings, reads, engine };
}

/**
 * The start-up's part of the learning state, after the migrations (`applied`: the names they ran):
 * the tables that 0008 and 0010 made or changed are filled from the records by today's code, and the
 * kept rankings are written until their mark says they all are (a start-up stopped during it does it
 * again).
 */
export async function buildLearningStates(
  db: Kysely<Database>,
  applied: readonly string[],
  clock: Clock = systemClock,
): Promise<void> {
  const { states, rankings } = learningStatesOver({ db }, clock);
  if (applied.includes('0008_learning_states') || applied.includes('0010_learning_state_urgency'))
    await states.rebuild();
  if (!(await rankings.built())) await rankings.rebuild();
}
