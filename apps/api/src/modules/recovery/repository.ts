import type { UnitOfWork } from '../../db/unitOfWork.js';

export interface ActivePin {
  id: number;
  pin_hash: string;
  failed_attempts: number;
}

/** The password_pins table: recovery codes, stored hashed. */
export class RecoveryRepository {
  constructor(private readonly uow: UnitOfWork) {}

  private get db() {
    return this.uow.db;
  }

  findUser(email: string) {
    return this.db
      .selectFrom('users')
      .select(['id', 'email', 'first_name', 'last_name', 'origin'])
      .where('email', '=', email.toLowerCase())
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
  }

  /** A new code replaces every earlier one of the user (the service runs both in one unit). */
  async replacePin(userId: number, pinHash: string, expiresAt: string, now: string): Promise<void> {
    await this.db.deleteFrom('password_pins').where('user_id', '=', userId).execute();
    await this.db
      .insertInto('password_pins')
      .values({ user_id: userId, pin_hash: pinHash, expires_at: expiresAt, created_at: now, updated_at: now })
      .execute();
  }

  /**
   * Takes one try of the user's live code before it is compared, in one conditional update, so that
   * parallel guesses can never take more than `maxTries`. Undefined when no live code is left.
   */
  takeTry(userId: number, now: string, maxTries: number): Promise<ActivePin | undefined> {
    const live = this.db
      .selectFrom('password_pins')
      .select('id')
      .where('user_id', '=', userId)
      .where('used_at', 'is', null)
      .where('expires_at', '>', now)
      .where('failed_attempts', '<', maxTries)
      .orderBy('id', 'desc')
      .limit(1);
    return this.db
      .updateTable('password_pins')
      .set((eb) => ({ failed_attempts: eb('failed_attempts', '+', 1), updated_at: now }))
      .where('id', 'in', live)
      .where('failed_attempts', '<', maxTries)
      .returning(['id', 'pin_hash', 'failed_attempts'])
      .executeTakeFirst();
  }

  /** A right code gives its try back: only wrong guesses count. */
  async returnTry(pinId: number): Promise<void> {
    await this.db
      .updateTable('password_pins')
      .set((eb) => ({ failed_attempts: eb('failed_attempts', '-', 1) }))
      .where('id', '=', pinId)
      .where('failed_attempts', '>', 0)
      .execute();
  }

  /** Marks the code used; false when it was used meanwhile (a parallel reset won). */
  async consumePin(pinId: number, now: string): Promise<boolean> {
    const used = await this.db
      .updateTable('password_pins')
      .set({ used_at: now, updated_at: now })
      .where('id', '=', pinId)
      .where('used_at', 'is', null)
      .returning('id')
      .executeTakeFirst();
    return used !== undefined;
  }
}
