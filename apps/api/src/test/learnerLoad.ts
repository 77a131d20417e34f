import {
  adminUserListResponse,
  checkAuthResponse,
  createUserResponse,
  finishAttemptResponse,
  learnerTestResponse,
  loginResponse,
  modulesStructuredResponse,
  startAttemptResponse,
  studyGroupResponse,
  studyGroupsResponse,
} from '@lms/contract';
import { BalancedClient, type Answer } from './balancedClient.js';
import { mailText } from './mimeText.js';
import { pollUntil } from './poll.js';
import type { TestSmtp } from './smtp.js';

/**
 * What people do through the balancer in the cluster test, and every write a process acknowledged
 * (a 2xx answer, or found applied by a read-back), so that the test can look for each in the database.
 */
export interface Acknowledged {
  users: { id: number; email: string }[];
  /** Learners whose own password was set (instead of the mailed one). */
  ownPasswords: number[];
  lessons: { userId: number; lessonId: number }[];
  attempts: { userId: number; attemptId: number }[];
  answers: { attemptId: number; questionId: number; options: number[] }[];
  finished: { attemptId: number; score: number }[];
  /** Study groups the administrator created (names are the client's, unique). */
  groups: string[];
}

export const emptyAcknowledged = (): Acknowledged => ({
  users: [],
  ownPasswords: [],
  lessons: [],
  attempts: [],
  answers: [],
  finished: [],
  groups: [],
});

const json = BalancedClient.json;

/** The answer, which must be a success (2xx): anything else fails the test with what came back. */
function ok(answer: Answer | 'applied', what: string): Answer | 'applied' {
  if (answer !== 'applied' && (answer.status < 200 || answer.status > 299)) {
    throw new Error(`${what}: ${answer.status} ${answer.body}`);
  }
  return answer;
}

/** Signs in with the form's call; a repeat only opens another session, so it is idempotent. */
export async function signIn(client: BalancedClient, login: string, password: string): Promise<void> {
  ok(await client.get('/api/check-auth'), 'check-auth');
  const answer = ok(
    await client.write('POST', '/login', { login, password, remember: false }, { idempotent: true }),
    `sign-in of ${login}`,
  );
  if (answer !== 'applied') json(answer, loginResponse);
}

/**
 * An employee added by the administrator (the password is generated and mailed). Adding is not
 * idempotent (a repeat is refused as a taken address), so without a verdict the list is read first.
 */
export async function addLearner(
  admin: BalancedClient,
  person: {
    email: string;
    firstName: string;
    lastName: string;
    departmentId: number;
    roleId: number;
    courseId: number;
  },
  acknowledged: Acknowledged,
): Promise<number> {
  const findId = async () => {
    const list = json(
      await admin.get(`/api/admin/users?search=${encodeURIComponent(person.email)}`),
      adminUserListResponse,
    );
    return list.items.find((u) => u.email === person.email)?.id;
  };
  const answer = ok(
    await admin.write(
      'POST',
      '/api/admin/users',
      {
        first_name: person.firstName,
        last_name: person.lastName,
        login: person.email,
        department_id: person.departmentId,
        role_id: person.roleId,
        password: '',
        course_ids: [person.courseId],
      },
      { applied: async () => (await findId()) !== undefined },
    ),
    `adding ${person.email}`,
  );
  const id = answer === 'applied' ? await findId() : json(answer, createUserResponse).data.id;
  if (id === undefined) throw new Error(`${person.email} was found and then not`);
  acknowledged.users.push({ id, email: person.email });
  return id;
}

/** The password in the welcome mail the SMTP server received for `email`. */
export async function mailedPassword(smtp: TestSmtp, email: string, context: () => string): Promise<string> {
  return pollUntil(
    `the welcome mail to ${email}`,
    () => {
      for (const mail of smtp.accepted.filter((m) => m.to.includes(email))) {
        const password = /Пароль: (\S+)/.exec(mailText(mail.raw).text)?.[1];
        if (password) return password;
      }
      return undefined;
    },
    60_000,
    context,
  );
}

/**
 * The first sign-in of an added learner: the mailed password, then their own. Setting it is refused
 * once done, so without a verdict check-auth is read first (`must_change_password`).
 */
export async function firstSignIn(
  client: BalancedClient,
  learner: { id: number; email: string; mailed: string; own: string },
  acknowledged: Acknowledged,
): Promise<void> {
  await signIn(client, learner.email, learner.mailed);
  ok(
    await client.write(
      'POST',
      '/api/profile/set-password',
      { new_password: learner.own, new_password_confirmation: learner.own },
      {
        applied: async () => !json(await client.get('/api/check-auth'), checkAuthResponse).must_change_password,
      },
    ),
    `own password of ${learner.email}`,
  );
  acknowledged.ownPasswords.push(learner.id);
}

/** Opens the course and works through `count` of its lessons (start and complete repeat harmlessly). */
export async function studyLessons(
  client: BalancedClient,
  learner: { id: number; courseId: number; count: number },
  acknowledged: Acknowledged,
): Promise<void> {
  const modules = json(
    await client.get(`/api/courses/${learner.courseId}/modules-structured`),
    modulesStructuredResponse,
  ).result.modules;
  const lessons = modules.flatMap((m) => m.lessonsList).filter((i) => i.type === 'lesson' && i.kind !== 'scorm');
  for (const lesson of lessons.slice(0, learner.count)) {
    for (const what of ['start', 'complete'] as const) {
      const path = `/api/lessons/${lesson.id}/${what}`;
      ok(await client.write('POST', path, undefined, { idempotent: true }), path);
    }
    acknowledged.lessons.push({ userId: learner.id, lessonId: lesson.id });
  }
}

/**
 * The exam: start (a repeat continues the open attempt), read the questions, answer each (the same
 * answer again is accepted), finish (a repeat returns the first result). `answered` is told of each
 * acknowledged answer, so that the test can act in the middle of the spike.
 */
export async function takeExam(
  client: BalancedClient,
  learner: { id: number; courseId: number; testId: number },
  acknowledged: Acknowledged,
  answered: () => void,
): Promise<void> {
  const started = ok(
    await client.write('POST', '/api/test-attempts/start', { course_test_id: learner.testId }, { idempotent: true }),
    'start',
  );
  if (started === 'applied') throw new Error('an idempotent write is never read back');
  const attemptId = json(started, startAttemptResponse).result.attempt.id;
  acknowledged.attempts.push({ userId: learner.id, attemptId });
  const view = json(await client.get(`/api/courses/${learner.courseId}/tests/${learner.testId}`), learnerTestResponse);
  for (const [n, q] of view.result.test.questions.entries()) {
    const first = q.options[(learner.id + n) % q.options.length];
    if (!first) continue;
    const options = [first.id];
    ok(
      await client.write(
        'POST',
        '/api/test-attempts/save-answers',
        { attempt_id: attemptId, answers: [{ test_question_id: q.id, answer: options }] },
        { idempotent: true },
      ),
      `answer to ${q.id}`,
    );
    acknowledged.answers.push({ attemptId, questionId: q.id, options });
    answered();
  }
  const finished = ok(
    await client.write('POST', '/api/test-attempts/finish', { attempt_id: attemptId }, { idempotent: true }),
    'finish',
  );
  if (finished === 'applied') throw new Error('an idempotent write is never read back');
  acknowledged.finished.push({ attemptId, score: json(finished, finishAttemptResponse).result.score });
  ok(await client.get(`/api/courses/${learner.courseId}/tests/${learner.testId}/${attemptId}/result`), 'result');
}

/**
 * The administrator adds study groups while the exam runs. Adding one is not idempotent (a repeat
 * would add a second group of the same name), so without a verdict the list is read first.
 */
export async function addGroup(
  admin: BalancedClient,
  group: { name: string; userIds: number[] },
  acknowledged: Acknowledged,
): Promise<void> {
  const exists = async () =>
    json(await admin.get('/api/study-groups'), studyGroupsResponse).result.items.some((g) => g.name === group.name);
  const answer = ok(
    await admin.write(
      'POST',
      '/api/study-groups',
      { name: group.name, user_ids: group.userIds, course_ids: [] },
      { applied: exists },
    ),
    `group ${group.name}`,
  );
  if (answer !== 'applied') json(answer, studyGroupResponse);
  acknowledged.groups.push(group.name);
}
