/**
 * The exam spike as the load process sends it: each connection takes learners one after another,
 * each starting the test, reading it, answering every question (one call each) and finishing. First
 * one learner per connection at once to warm the server up (counted apart), then the rest.
 */
import type { Request } from 'autocannon';
import type { SessionHeaders } from './layout.js';
import { takeTest } from './mix.js';
import { flowRequests, type Flow } from './requests.js';
import type { Plan } from './workloads.js';

export interface ExamFixture {
  courseId: number;
  testId: number;
  questions: number;
  /** Learners in the order they take the test; the first `warmers` warm the server up. */
  learners: { id: number; headers: SessionHeaders }[];
  warmers: number;
}

/** What one learner sent and was answered. */
export interface Taken {
  userId: number;
  attemptId: number;
  sent: [number, number[]][];
  finished: unknown;
}

export function examPlan(f: ExamFixture, connections: number): Plan {
  const steps = f.questions + 3;
  const rest = f.learners.length - f.warmers;
  if (f.warmers !== connections || rest % connections !== 0)
    throw new Error(`the exam needs one warmer per connection and learners in multiples of ${connections}`);
  const taken: Taken[] = [];
  let at = 0;
  const exam = (): Flow => {
    const learner = f.learners[at++];
    if (!learner) throw new Error('more exams than learners');
    return takeTest(learner.id, learner.headers, f.courseId, f.testId, (attemptId, sent, finished) =>
      taken.push({ userId: learner.id, attemptId, sent, finished }),
    );
  };
  const requests: Request[] = flowRequests(exam, (rest / connections) * steps);
  return {
    requests,
    phases: [{ amount: f.warmers * steps }, { amount: rest * steps }],
    extra: () => taken,
  };
}
