import type { UnitOfWork } from '../../db/unitOfWork.js';
import { iso, type Clock } from '../../platform/clock.js';
import type { SessionRepository } from '../../platform/sessions.js';
import type { UsersRepository } from './repository.js';

/**
 * "Set a password and end the user's sessions" (docs/rules.md §Accounts, §Profile): the one
 * function behind admin reset, reset by code, the profile's password change and the own password
 * that replaces a mailed one.
 */
export class Credentials {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly users: UsersRepository,
    private readonly sessions: SessionRepository,
    private readonly clock: Clock,
  ) {}

  /**
   * Sets the password (hashed by the caller, outside any transaction) and ends every session of the
   * user but `keepSessionId` (the changer's own); joins the caller's unit when there is one.
   * `mailed`: the password travelled by mail (an administrator's reset, a new account, the
   * recovery code), so the user must set their own before anything else; the user's own password
   * lifts that.
   */
  replacePassword(
    userId: number,
    passwordHash: string,
    opts: { keepSessionId?: number; mailed: boolean },
  ): Promise<void> {
    return this.uow.run(async () => {
      await this.users.setPasswordHash(userId, passwordHash, opts.mailed, iso(this.clock.now()));
      await this.sessions.deleteAllOf(userId, opts.keepSessionId);
    });
  }
}
