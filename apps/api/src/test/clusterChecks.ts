import { expect } from 'vitest';
import type { Cluster } from './cluster.js';
import type { Acknowledged } from './learnerLoad.js';
import { mailText } from './mimeText.js';
import { pollUntil } from './poll.js';

const sorted = <T>(list: T[]): T[] => [...list].sort();

/**
 * Every write a process acknowledged is in the database once the load is over, and none of those that
 * were repeated or read back was applied twice.
 */
export async function checkAcknowledged(
  c: Cluster,
  ack: Acknowledged,
  scope: { courseId: number; testId: number; learners: number[] },
): Promise<void> {
  const k = c.db.kysely;
  const users = await k
    .selectFrom('users')
    .select(['id', 'email', 'must_change_password'])
    .where(
      'id',
      'in',
      ack.users.map((u) => u.id),
    )
    .execute();
  expect(sorted(users.map((u) => `${u.id} ${u.email}`))).toEqual(sorted(ack.users.map((u) => `${u.id} ${u.email}`)));
  const mailedStill = users.filter((u) => ack.ownPasswords.includes(u.id) && u.must_change_password);
  expect(mailedStill, 'own passwords acknowledged but not stored').toEqual([]);

  const lessons = await k
    .selectFrom('lesson_progress')
    .select(['user_id', 'lesson_id'])
    .where('user_id', 'in', scope.learners)
    .where('completed_at', 'is not', null)
    .execute();
  const completed = new Set(lessons.map((r) => `${r.user_id}:${r.lesson_id}`));
  expect(ack.lessons.filter((l) => !completed.has(`${l.userId}:${l.lessonId}`))).toEqual([]);
  // One row per learner and lesson: a repeated start or completion wrote nothing new.
  expect(lessons.length).toBe(completed.size);

  const attempts = await k
    .selectFrom('test_attempts')
    .select(['id', 'user_id', 'finished_at', 'score'])
    .where('test_id', '=', scope.testId)
    .where('user_id', 'in', scope.learners)
    .execute();
  // One attempt each: a repeated start continued the open attempt instead of drawing another.
  expect(sorted(attempts.map((a) => `${a.id}:${a.user_id}`))).toEqual(
    sorted(ack.attempts.map((a) => `${a.attemptId}:${a.userId}`)),
  );
  const byId = new Map(attempts.map((a) => [a.id, a]));
  for (const f of ack.finished) {
    expect(byId.get(f.attemptId)?.finished_at, `attempt ${f.attemptId} finished`).not.toBeNull();
    expect(byId.get(f.attemptId)?.score, `attempt ${f.attemptId}'s score`).toBe(f.score);
  }

  const answers = await k
    .selectFrom('attempt_answers')
    .select(['attempt_id', 'question_id', 'answer_ids'])
    .where(
      'attempt_id',
      'in',
      attempts.map((a) => a.id),
    )
    .execute();
  const saved = new Map(answers.map((a) => [`${a.attempt_id}:${a.question_id}`, JSON.stringify(a.answer_ids)]));
  expect(saved.size, 'one saved answer per attempt and question').toBe(answers.length);
  expect(
    ack.answers.filter((a) => saved.get(`${a.attemptId}:${a.questionId}`) !== JSON.stringify(a.options)),
    'acknowledged answers not saved as sent',
  ).toEqual([]);

  // Adding a group is not idempotent: each acknowledged one exists once, none twice.
  const groups = await k
    .selectFrom('study_groups')
    .select('name')
    .where('name', 'like', 'Экзаменационная группа %')
    .execute();
  expect(sorted(groups.map((g) => g.name))).toEqual(sorted(ack.groups));
}

/**
 * Every mail of the mail log was delivered, and the SMTP server received each exactly once: the
 * reminder passes of several processes and the outbox's leases never sent one twice.
 */
export async function checkMailsOnce(c: Cluster): Promise<void> {
  const k = c.db.kysely;
  const log = await pollUntil(
    'every queued mail delivered',
    async () => {
      const rows = await k.selectFrom('mail_log').select(['recipient', 'subject', 'status', 'attempts']).execute();
      const delivered = rows.every((r) => r.status === 'sent') && c.smtp.accepted.length >= rows.length;
      return delivered && rows;
    },
    60_000,
    c.output,
  );
  expect(
    log.filter((r) => r.attempts !== 1),
    'mails taken more than once',
  ).toEqual([]);
  const received = c.smtp.accepted.map((m) => `${m.to.join(',')} | ${mailText(m.raw).subject}`);
  expect(sorted(received)).toEqual(sorted(log.map((r) => `${r.recipient} | ${r.subject}`)));
  expect(new Set(received).size, 'a mail received twice').toBe(received.length);
  const kinds = await k
    .selectFrom('mail_log')
    .select(['kind', (eb) => eb.fn.countAll<string>().as('n')])
    .groupBy('kind')
    .execute();
  const reminders = kinds.filter((r) => r.kind.startsWith('reminder_')).reduce((n, r) => n + Number(r.n), 0);
  const claims = await k
    .selectFrom('reminder_deliveries')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .executeTakeFirstOrThrow();
  expect(reminders, 'one mail per claimed reminder').toBe(Number(claims.n));
}
