import type { UnitOfWork } from '../../../db/unitOfWork.js';

/** What the OpenID Connect sign-in reads of accounts beyond the password sign-in's lookup. */
export class OidcAccountsRepository {
  constructor(private readonly uow: UnitOfWork) {}

  /** Whether a deleted account has this (lower-case) address: such a person is refused, never re-created. */
  async deletedWith(email: string): Promise<boolean> {
    const row = await this.uow.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', email)
      .where('deleted_at', 'is not', null)
      .executeTakeFirst();
    return row !== undefined;
  }
}
