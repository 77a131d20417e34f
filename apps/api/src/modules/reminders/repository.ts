import { sql } from 'kysely';
import type { UnitOfWork } from '../../db/unitOfWork.js';

export type ReminderKind = 'reminder_almost_overdue' | 'reminder_overdue' | 'reminder_new_cycle';

/** An enrolled learner's unfinished course near or past its deadline, or in a new cycle. */
export interface ReminderCandidate {
  user_id: number;
  course_id: number;
  cycle: number;
  deadline: string | null;
  email: string;
  first_name: string;
  title: string;
  has_deadline: boolean;
  deadline_warning_days: number;
  sent: Set<ReminderKind>;
}

export interface ReminderClaim {
  user_id: number;
  course_id: number;
  cycle: number;
  kind: ReminderKind;
}

/** This week's digest of a user, as recorded in `digest_deliveries`. */
export interface DigestClaim {
  user_id: number;
  week: string;
}

export interface DigestRecipient {
  id: number;
  email: string;
  first_name: string;
  last_name: string;
  role_code: string;
  role_name: string;
  department_id: number | null;
}

const CLAIMS_PER_INSERT = 400;

/**
 * What the reminder pass reads and records (issue 16). It owns `reminder_deliveries` and
 * `digest_deliveries`, whose primary keys make each mail's claim unique across passes and processes;
 * the candidates are a read over the maintained learning state (progress/states.ts owns those rows).
 */
export class RemindersRepository {
  constructor(private readonly uow: Pick<UnitOfWork, 'db'>) {}

  private get db() {
    return this.uow.db;
  }

  /** The longest warning window of any live course, in days (bounds the candidates' deadlines). */
  async maxWarningDays(): Promise<number> {
    const row = await this.db
      .selectFrom('courses')
      .select((eb) => eb.fn.max('deadline_warning_days').as('days'))
      .where('deleted_at', 'is', null)
      .where('has_deadline', '=', true)
      .executeTakeFirst();
    return Number(row?.days ?? 0);
  }

  /**
   * Unfinished enrollments of live, published, reachable courses of learners who want reminders,
   * whose deadline is before `horizon` or whose cycle is a re-certification, with the kinds already
   * sent for the current cycle. One indexed query, whatever the number of employees.
   */
  async candidates(horizon: string): Promise<ReminderCandidate[]> {
    const sentOf = (kind: ReminderKind) =>
      sql<number>`(select 1 from reminder_deliveries r where r.user_id = s.user_id and r.course_id = s.course_id and r.cycle = s.cycle and r.kind = ${kind})`;
    const sent = (kind: ReminderKind) =>
      sql<number>`(select count(*) from reminder_deliveries r where r.user_id = s.user_id and r.course_id = s.course_id and r.cycle = s.cycle and r.kind = ${kind})`;
    const rows = await this.db
      .selectFrom('learning_states as s')
      .innerJoin('enrollments as e', (j) =>
        j.onRef('e.user_id', '=', 's.user_id').onRef('e.course_id', '=', 's.course_id'),
      )
      .innerJoin('courses as c', 'c.id', 's.course_id')
      .innerJoin('users as u', 'u.id', 's.user_id')
      .select([
        's.user_id',
        's.course_id',
        's.cycle',
        's.deadline',
        'u.email',
        'u.first_name',
        'c.title',
        'c.has_deadline',
        'c.deadline_warning_days',
        sent('reminder_almost_overdue').as('sent_almost'),
        sent('reminder_overdue').as('sent_overdue'),
        sent('reminder_new_cycle').as('sent_new_cycle'),
      ])
      .where('s.completed_at', 'is', null)
      .where('c.deleted_at', 'is', null)
      .where('c.is_published', '=', true)
      .where('c.accessibility', '!=', 'nobody')
      .where('u.deleted_at', 'is', null)
      .where('u.reminder_mails', '=', true)
      // Only what may still be due: once the overdue reminder of a cycle went, its deadline has
      // nothing more to say, so a pass after a mass mailing does not reread every sent row.
      .where((eb) =>
        eb.or([
          eb.and([
            eb('c.has_deadline', '=', true),
            eb('s.deadline', 'is not', null),
            eb('s.deadline', '<=', horizon),
            eb.not(eb.exists(sentOf('reminder_overdue'))),
          ]),
          eb.and([eb('s.cycle', '>', 1), eb.not(eb.exists(sentOf('reminder_new_cycle')))]),
        ]),
      )
      .orderBy('s.user_id')
      .orderBy('s.course_id')
      .execute();
    return rows.map(({ sent_almost, sent_overdue, sent_new_cycle, ...r }) => {
      const kinds = new Set<ReminderKind>();
      if (Number(sent_almost) > 0) kinds.add('reminder_almost_overdue');
      if (Number(sent_overdue) > 0) kinds.add('reminder_overdue');
      if (Number(sent_new_cycle) > 0) kinds.add('reminder_new_cycle');
      return { ...r, sent: kinds };
    });
  }

  /**
   * Records the reminders about to be sent and returns those this call inserted: a reminder already
   * recorded (by an earlier pass or another process) is left out, so it is never sent twice.
   */
  async claim(claims: readonly ReminderClaim[], now: string): Promise<ReminderClaim[]> {
    const won: ReminderClaim[] = [];
    for (let i = 0; i < claims.length; i += CLAIMS_PER_INSERT) {
      const part = claims.slice(i, i + CLAIMS_PER_INSERT);
      const rows = await this.db
        .insertInto('reminder_deliveries')
        .values(part.map((c) => ({ ...c, sent_at: now })))
        .onConflict((oc) => oc.columns(['user_id', 'course_id', 'cycle', 'kind']).doNothing())
        .returning(['user_id', 'course_id', 'cycle', 'kind'])
        .execute();
      for (const r of rows) won.push({ ...r, kind: r.kind as ReminderKind });
    }
    return won;
  }

  /** Managers with a department and admins who want the digest and have not had this week's. */
  async digestRecipients(week: string): Promise<DigestRecipient[]> {
    return this.db
      .selectFrom('users as u')
      .innerJoin('roles as r', 'r.id', 'u.role_id')
      .select([
        'u.id',
        'u.email',
        'u.first_name',
        'u.last_name',
        'r.code as role_code',
        'r.name as role_name',
        'u.department_id',
      ])
      .where('u.deleted_at', 'is', null)
      .where('u.digest_mails', '=', true)
      .where((eb) =>
        eb.or([
          eb('r.code', '=', 'admin'),
          eb.and([eb('r.code', '=', 'manager'), eb('u.department_id', 'is not', null)]),
        ]),
      )
      .where((eb) =>
        eb.not(
          eb.exists(
            eb
              .selectFrom('digest_deliveries as d')
              .select('d.user_id')
              .whereRef('d.user_id', '=', 'u.id')
              .where('d.week', '=', week),
          ),
        ),
      )
      .orderBy('u.id')
      .execute();
  }

  /** Records this week's digest of the user (sent or, with nothing to say, not); false if already recorded. */
  async claimDigest(userId: number, week: string, sent: boolean, now: string): Promise<boolean> {
    const rows = await this.db
      .insertInto('digest_deliveries')
      .values({ user_id: userId, week, sent, sent_at: now })
      .onConflict((oc) => oc.columns(['user_id', 'week']).doNothing())
      .returning('user_id')
      .execute();
    return rows.length > 0;
  }

  /**
   * Gives back claims whose mails were never handed to the mailer (shutdown): the next pass, of this
   * or another process, claims and sends them.
   */
  async release(reminders: readonly ReminderClaim[], digests: readonly DigestClaim[]): Promise<void> {
    // By course, cycle and kind, users in lists: a mass pass's claims share a few of those, so the
    // deletes are a few hundred primary-key lookups by list rather than 100 000 OR-ed conditions.
    const byGroup = new Map<string, { claim: ReminderClaim; users: number[] }>();
    for (const c of reminders) {
      const k = `${c.course_id}:${c.cycle}:${c.kind}`;
      const group = byGroup.get(k);
      if (group) group.users.push(c.user_id);
      else byGroup.set(k, { claim: c, users: [c.user_id] });
    }
    for (const { claim, users } of byGroup.values()) {
      for (let i = 0; i < users.length; i += CLAIMS_PER_INSERT * 4) {
        await this.db
          .deleteFrom('reminder_deliveries')
          .where('user_id', 'in', users.slice(i, i + CLAIMS_PER_INSERT * 4))
          .where('course_id', '=', claim.course_id)
          .where('cycle', '=', claim.cycle)
          .where('kind', '=', claim.kind)
          .execute();
      }
    }
    for (let i = 0; i < digests.length; i += CLAIMS_PER_INSERT) {
      const part = digests.slice(i, i + CLAIMS_PER_INSERT);
      await this.db
        .deleteFrom('digest_deliveries')
        .where((eb) => eb.or(part.map((d) => eb.and([eb('user_id', '=', d.user_id), eb('week', '=', d.week)]))))
        .execute();
    }
  }
}
