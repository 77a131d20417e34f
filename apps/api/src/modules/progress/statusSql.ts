import { sql, type RawBuilder } from 'kysely';

type Moment = string | RawBuilder<string>;

/**
 * `deadlineStatus` over a stored `learning_states` row, in SQL, for the reads that judge rows in the
 * database (the kept ranking, the digests, the reminders due): an unfinished course is overdue once
 * `now` is past its deadline, and almost overdue once its warning window has opened (`warning_at`,
 * the engine's `warningAt`). A null time satisfies neither.
 */
export function pastDeadline(row: string, now: Moment): RawBuilder<boolean> {
  return sql<boolean>`${sql.ref(`${row}.deadline`)} < ${now}`;
}

export function warned(row: string, now: Moment): RawBuilder<boolean> {
  return sql<boolean>`${sql.ref(`${row}.warning_at`)} <= ${now}`;
}
