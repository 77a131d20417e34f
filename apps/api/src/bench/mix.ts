/**
 * The working-day mix: every connection plays one visit after another, as people use the platform
 * during a day.
 *
 * - 85 % learners (a different one each visit): home page (both calls), a course of theirs (summary
 *   and outline; mostly one of the three they have begun), a lesson's contents, starting and
 *   completing it; one visit in three then takes the module's test (start, read it, answer its five
 *   questions one call each, finish).
 * - 10 % managers: their department's employees, one employee's card, that employee's course.
 * - 5 % the author: opens a draft course, its modules and a lesson, saves the lesson's contents,
 *   renames it, and publishes or withdraws the course.
 *
 * Answers are a function of learner and question, so a test attempt continued by a later visit (its
 * first visit cut off at the end of a run) sends the same answers again, as the server requires.
 */
import type { Request } from 'autocannon';
import {
  DRAFT_COURSES,
  LESSONS_PER_COURSE,
  LESSONS_PER_DRAFT,
  MODULES,
  courseOf,
  draftCourse,
  draftLesson,
  lessonOf,
  random,
  testOf,
  type Fixture,
  type SessionHeaders,
} from './layout.js';
import { at, cycle, flowRequests, json, step, type Flow } from './requests.js';

/** Requests a connection makes before its context (and the visit in progress) is renewed. */
const CONTEXT_REQUESTS = 5000;

interface Question {
  id: number;
  multiple: boolean;
  options: number[];
}

/** The questions of a test as the learner's test page answers them. */
export function questionsOf(body: unknown): Question[] {
  const list = at(body, 'result', 'test', 'questions');
  if (!Array.isArray(list)) return [];
  return list.map((q: unknown) => ({
    id: Number(at(q, 'id')),
    multiple: at(q, 'multiple') === true,
    options: ((at(q, 'options') as unknown[] | undefined) ?? []).map((o) => Number(at(o, 'id'))).sort((a, b) => a - b),
  }));
}

/** A spread of right and wrong answers that depends only on the learner and the question. */
export function answerFor(learner: number, q: Question): number[] {
  const n = q.options.length;
  const first = q.options[(learner + q.id) % n] ?? 0;
  const second = q.options[(learner + q.id + 1) % n] ?? 0;
  return q.multiple && (learner + q.id) % 3 === 0 ? [first, second] : [first];
}

/** Start, read, answer each question, finish; the attempt's id and what was sent, for the exam's check. */
export function* takeTest(
  learner: number,
  who: SessionHeaders,
  course: number,
  test: number,
  taken?: (attemptId: number, sent: [number, number[]][], finished: unknown) => void,
): Flow {
  const started = yield step('POST /api/test-attempts/start', 'POST', '/api/test-attempts/start', who, {
    course_test_id: test,
  });
  const attemptId = Number(at(json(started), 'result', 'attempt', 'id'));
  if (!attemptId) return;
  const view = yield step('GET /api/courses/{id}/tests/{id}', 'GET', `/api/courses/${course}/tests/${test}`, who);
  const sent: [number, number[]][] = [];
  for (const q of questionsOf(json(view))) {
    const answer = answerFor(learner, q);
    yield step('POST /api/test-attempts/save-answers', 'POST', '/api/test-attempts/save-answers', who, {
      attempt_id: attemptId,
      answers: [{ test_question_id: q.id, answer }],
    });
    sent.push([q.id, answer]);
  }
  const finished = yield step('POST /api/test-attempts/finish', 'POST', '/api/test-attempts/finish', who, {
    attempt_id: attemptId,
  });
  taken?.(attemptId, sent, at(json(finished), 'result'));
}

function* learnerVisit(f: Fixture, id: number, next: () => number): Flow {
  const who = f.sessions[id - 1] ?? {};
  const pick = (n: number) => Math.floor(next() * n);
  yield step('GET /api/user/courses', 'GET', '/api/user/courses', who);
  yield step('GET /api/user/started-lessons', 'GET', '/api/user/started-lessons', who);
  const course = courseOf(id, next() < 0.7 ? pick(3) : pick(10));
  yield step('GET /api/admin/courses/{id}', 'GET', `/api/admin/courses/${course}`, who);
  yield step('GET /api/courses/{id}/modules-structured', 'GET', `/api/courses/${course}/modules-structured`, who);
  const lesson = lessonOf(course, pick(LESSONS_PER_COURSE));
  yield step(
    'GET /api/courses/{id}/lessons/{id}/contents',
    'GET',
    `/api/courses/${course}/lessons/${lesson}/contents`,
    who,
  );
  yield step('POST /api/lessons/{id}/start', 'POST', `/api/lessons/${lesson}/start`, who);
  yield step('POST /api/lessons/{id}/complete', 'POST', `/api/lessons/${lesson}/complete`, who);
  if (next() < 1 / 3) yield* takeTest(id, who, course, testOf(course, pick(MODULES)));
}

function* managerVisit(f: Fixture, next: () => number): Flow {
  const department = 1 + Math.floor(next() * f.departments);
  const who = f.sessions[department - 1] ?? {};
  yield step('GET /api/analytics/users', 'GET', '/api/analytics/users', who);
  // The department's employees are department + k × departments (k ≥ 1; k = 0 is the manager).
  const members = Math.max(1, Math.floor((f.employees - department) / f.departments));
  const employee = department + f.departments * (1 + Math.floor(next() * members));
  yield step('GET /api/analytics/users/{id}', 'GET', `/api/analytics/users/${employee}`, who);
  const course = courseOf(employee, Math.floor(next() * 3));
  yield step(
    'GET /api/analytics/courses/{id}/user/{id}',
    'GET',
    `/api/analytics/courses/${course}/user/${employee}`,
    who,
  );
}

function* authorVisit(f: Fixture, next: () => number): Flow {
  const k = Math.floor(next() * DRAFT_COURSES);
  const [course, lesson] = [draftCourse(k), draftLesson(k, Math.floor(next() * LESSONS_PER_DRAFT))];
  const who = f.author;
  yield step('GET /api/courses/{id}', 'GET', `/api/courses/${course}`, who);
  yield step('GET /api/courses/{id}/modules', 'GET', `/api/courses/${course}/modules`, who);
  yield step('GET /api/courses/{id}/lessons/{id}', 'GET', `/api/courses/${course}/lessons/${lesson}`, who);
  const edit = Math.floor(next() * 1000);
  yield step(
    'PUT /api/courses/{id}/lessons/{id}/contents',
    'PUT',
    `/api/courses/${course}/lessons/${lesson}/contents`,
    who,
    {
      contents: [
        { id: 'tmp-1', type: 'text', content: `<p>Правка ${edit}: порядок действий при пожаре.</p>`, sort_order: 0 },
        { id: 'tmp-2', type: 'text', content: '<p>Проверьте себя вопросами в конце модуля.</p>', sort_order: 1 },
      ],
    },
  );
  yield step('PUT /api/courses/{id}/lessons/{id}', 'PUT', `/api/courses/${course}/lessons/${lesson}`, who, {
    name: `Урок (правка ${edit})`,
  });
  yield step('POST /api/courses/{id}/publish', 'POST', `/api/courses/${course}/publish`, who, {
    is_published: next() < 0.5,
  });
}

export function mixPlan(f: Fixture): { requests: Request[] } {
  const next = random(5);
  const learner = cycle(
    Array.from({ length: f.employees - f.departments }, (_, i) => f.departments + i + 1),
    21,
  );
  const visit = (): Flow => {
    const r = next();
    if (r < 0.85) return learnerVisit(f, learner(), next);
    return r < 0.95 ? managerVisit(f, next) : authorVisit(f, next);
  };
  return { requests: flowRequests(visit, CONTEXT_REQUESTS) };
}
