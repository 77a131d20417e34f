import type { UnitOfWork } from '../../db/unitOfWork.js';
import { iso, type Clock } from '../../platform/clock.js';
import type { Mailer } from '../../platform/mail/mailer.js';
import { welcomeMail, type MailContext } from '../../platform/mail/templates.js';
import { generatePassword, hashPassword } from '../../platform/passwords.js';
import type { UsersRepository } from '../users/repository.js';

const ROWS_PER_INSERT = 500;
/** Invitations a pass sends at most: each costs a password hash (about 10 ms of a core). */
const PER_PASS = 50;

/**
 * Invitations of imported people (`welcome_queue`): the import only queues them, in its transaction;
 * the background pass gives each a password and queues the mail with it, in the transaction that
 * takes the person off the queue, so that a person is invited once however often a pass runs.
 * Hashing happens outside that transaction (the import of 10 000 people would otherwise wait
 * minutes for their hashes).
 */
export class WelcomeQueue {
  #stopped = false;

  constructor(
    private readonly uow: UnitOfWork,
    private readonly users: UsersRepository,
    private readonly mailer: Mailer,
    private readonly mail: MailContext,
    private readonly clock: Clock,
  ) {}

  async add(userIds: readonly number[], site: string, now: string): Promise<void> {
    for (let i = 0; i < userIds.length; i += ROWS_PER_INSERT) {
      const rows = userIds.slice(i, i + ROWS_PER_INSERT).map((user_id) => ({ user_id, site, queued_at: now }));
      if (rows.length > 0) await this.uow.db.insertInto('welcome_queue').values(rows).execute();
    }
  }

  /** The server is stopping: a pass ends after the invitation it is sending. */
  stop(): void {
    this.#stopped = true;
  }

  /** Sends the invitations waiting, oldest first, a pass at a time; returns how many were sent. */
  async sendDue(): Promise<number> {
    let sent = 0;
    while (!this.#stopped) {
      const due = await this.uow.db
        .selectFrom('welcome_queue')
        .select(['user_id', 'site'])
        .orderBy('queued_at')
        .orderBy('user_id')
        .limit(PER_PASS)
        .execute();
      if (due.length === 0) return sent;
      for (const { user_id, site } of due) {
        if (this.#stopped) break;
        if (await this.invite(user_id, site)) sent++;
      }
    }
    return sent;
  }

  private async invite(userId: number, site: string): Promise<boolean> {
    const password = generatePassword(14);
    const passwordHash = await hashPassword(password);
    return this.uow.run(async () => {
      // Taken off the queue first: another process's pass that took the same person finds nothing.
      const taken = await this.uow.db.deleteFrom('welcome_queue').where('user_id', '=', userId).executeTakeFirst();
      if (Number(taken.numDeletedRows) === 0) return false;
      const user = await this.users.find(userId);
      // Deleted since the import: nobody to invite.
      if (!user) return false;
      await this.users.setPasswordHash(userId, passwordHash, true, iso(this.clock.now()));
      await this.mailer.send({
        ...welcomeMail(this.mail, user.email, `${user.first_name} ${user.last_name}`, {
          login: user.email,
          password,
          site,
        }),
        audit: { kind: 'new_user_password', user_id: userId, course_id: null },
      });
      return true;
    });
  }
}
