import type { UnitOfWork } from '../../db/unitOfWork.js';
import { iso, type Clock } from '../../platform/clock.js';
import type { SessionRepository } from '../../platform/sessions.js';
import type { UsersRepository } from './repository.js';

/**
 * "Set a password and end the user's sessions" (DESIGN.md §6 "Accounts", "Profile"): the one
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
   * `mailedByAdmin`: an administrator had it mailed, so the user must set their own at sign-in;
   * any other password (the user's own, or one mailed at the user's own request by the recovery
   * code, which proves the mailbox is theirs) lifts that.
   */
  replacePassword(
    userId: number,
    passwordHash: string,
    opts: { keepSessionId?: number; mailedByAdmin: boolean },
  ): Promise<void> {
    return this.uow.run(async () => {
      await this.users.setPasswordHash(userId, passwordHash, opts.mailedByAdmin, iso(this.clock.now()));
      await this.sessions.deleteAllOf(userId, opts.keepSessionId);
    });
  }
}
