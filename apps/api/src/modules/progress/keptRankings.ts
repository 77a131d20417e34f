import type { UnitOfWork } from '../../db/unitOfWork.js';
import { iso, type Clock } from '../../platform/clock.js';
import { urgencyEntries } from './urgency.js';

/** The mark in `counters` (migration 0012) that every kept ranking has been written. */
export const URGENCY_BUILT = 'user_urgency_built';
/** Users ranked per query when their kept ranking is rewritten. */
const USERS_PER_PASS = 2000;
const ROWS_PER_INSERT = 400;

/**
 * The kept rankings (`user_urgency`, migration 0012): each user's most urgent enrolled course as
 * `urgency.ts` ranks it from the learning states, with the moment time alone may change the choice.
 * Written by `LearningStates` whenever a refresh changes what the ranking reads (`rankingChanged`),
 * in the same transaction, and by the periodic pass once time has overtaken a row.
 */
export class KeptRankings {
  constructor(
    private readonly uow: Pick<UnitOfWork, 'db'> & Partial<Pick<UnitOfWork, 'atEnd'>>,
    private readonly clock: Clock,
  ) {}

  private get db() {
    return this.uow.db;
  }

  /**
   * The users' kept rankings are to be written again. Inside a unit of work they are written once, at
   * its end, for every user it touched, in id order: a transaction that refreshes several times (a
   * course-wide change in passes, the renewal of several courses) then locks its users' rows in one
   * order like every other, and two transactions cannot deadlock on them.
   */
  async changed(userIds: readonly number[], now: Date): Promise<void> {
    const pending = this.uow.atEnd?.(
      'user_urgency',
      () => new Set<number>(),
      (users) => this.write([...users], this.clock.now()),
    );
    if (!pending) return this.write(userIds, now);
    for (const id of userIds) pending.add(id);
  }

  /**
   * Ranks the users' enrolled courses again and keeps the choice in `user_urgency` (progress/urgency.ts),
   * in the caller's transaction: every change of a learning state goes through `refresh`, which ends here.
   * The users' rows are locked first (in id order, so that two writers cannot deadlock on them) and the
   * ranking read afterwards: on PostgreSQL a transaction that changed another course of the same user
   * has then committed, and its rows are in what this one ranks (each statement reads what has
   * committed before it), so the last writer never keeps a ranking made without the other's change.
   */
  private async write(userIds: readonly number[], now: Date): Promise<void> {
    const ordered = [...new Set(userIds)].sort((a, b) => a - b);
    for (let i = 0; i < ordered.length; i += USERS_PER_PASS) {
      const part = ordered.slice(i, i + USERS_PER_PASS);
      await this.db
        .insertInto('user_urgency')
        .values(part.map((id) => ({ user_id: id, done: 0 })))
        .onConflict((oc) => oc.column('user_id').doUpdateSet((eb) => ({ done: eb.ref('user_urgency.done') })))
        .execute();
      const entries = new Map((await urgencyEntries(this.db, part, iso(now))).map((e) => [e.user_id, e]));
      // A user without enrolled rows of a live course keeps an empty row: no course, for good.
      const rows = part.map(
        (id) =>
          entries.get(id) ?? {
            user_id: id,
            course_id: null,
            status: null,
            deadline: null,
            done: 0,
            stable_until: null,
          },
      );
      for (let j = 0; j < rows.length; j += ROWS_PER_INSERT)
        await this.db
          .insertInto('user_urgency')
          .values(rows.slice(j, j + ROWS_PER_INSERT))
          .onConflict((oc) =>
            oc.column('user_id').doUpdateSet((eb) => ({
              course_id: eb.ref('excluded.course_id'),
              status: eb.ref('excluded.status'),
              deadline: eb.ref('excluded.deadline'),
              done: eb.ref('excluded.done'),
              stable_until: eb.ref('excluded.stable_until'),
            })),
          )
          .execute();
    }
  }

  /**
   * Every user's kept ranking from the rows, then the mark that they are complete (the start-up runs
   * this, standalone.ts, until the mark is set, so an interrupted rebuild is done again).
   */
  async rebuild(): Promise<void> {
    await this.db.deleteFrom('user_urgency').execute();
    const users = await this.db.selectFrom('learning_states').select('user_id').distinct().execute();
    await this.write(
      users.map((u) => u.user_id),
      this.clock.now(),
    );
    await this.db.updateTable('counters').set({ value: 1 }).where('name', '=', URGENCY_BUILT).execute();
  }

  /** Whether every user's kept ranking has been written since the table was made. */
  async built(): Promise<boolean> {
    const mark = await this.db
      .selectFrom('counters')
      .select('value')
      .where('name', '=', URGENCY_BUILT)
      .executeTakeFirst();
    return mark === undefined || mark.value === 1;
  }
}
