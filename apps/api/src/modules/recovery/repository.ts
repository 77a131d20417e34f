import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';

export interface ActivePin {
  id: number;
  pin_hash: string;
  failed_attempts: number;
}

export class RecoveryRepository {
  constructor(private readonly db: Kysely<Database>) {}

  findUser(email: string) {
    return this.db
      .selectFrom('users')
      .select(['id', 'email', 'first_name', 'last_name'])
      .where('email', '=', email.toLowerCase())
      .executeTakeFirst();
  }

  /** A new code replaces every earlier one of the user. */
  async replacePin(userId: number, pinHash: string, expiresAt: string, now: string): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('password_pins').where('user_id', '=', userId).execute();
      await trx
        .insertInto('password_pins')
        .values({ user_id: userId, pin_hash: pinHash, expires_at: expiresAt, created_at: now, updated_at: now })
        .execute();
    });
  }

  findActivePin(userId: number, now: string, maxFailures: number): Promise<ActivePin | undefined> {
    return this.db
      .selectFrom('password_pins')
      .select(['id', 'pin_hash', 'failed_attempts'])
      .where('user_id', '=', userId)
      .where('used_at', 'is', null)
      .where('expires_at', '>', now)
      .where('failed_attempts', '<', maxFailures)
      .orderBy('id', 'desc')
      .executeTakeFirst();
  }

  /** Counts a wrong guess in the database (so parallel guesses cannot overshoot); returns the new count. */
  async addFailure(pinId: number, now: string): Promise<number> {
    const row = await this.db
      .updateTable('password_pins')
      .set((eb) => ({ failed_attempts: eb('failed_attempts', '+', 1), updated_at: now }))
      .where('id', '=', pinId)
      .returning('failed_attempts')
      .executeTakeFirst();
    return row?.failed_attempts ?? Number.MAX_SAFE_INTEGER;
  }

  /**
   * Uses the code once: marks it used, sets the new password and ends every session, in one
   * transaction. False when the code was used meanwhile (a parallel reset won).
   */
  async consumePinAndSetPassword(pinId: number, userId: number, passwordHash: string, now: string): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const used = await trx
        .updateTable('password_pins')
        .set({ used_at: now, updated_at: now })
        .where('id', '=', pinId)
        .where('used_at', 'is', null)
        .returning('id')
        .executeTakeFirst();
      if (!used) return false;
      await trx
        .updateTable('users')
        .set({ password_hash: passwordHash, updated_at: now })
        .where('id', '=', userId)
        .execute();
      await trx.deleteFrom('sessions').where('user_id', '=', userId).execute();
      return true;
    });
  }
}
