import type { RoleCode } from '@lms/contract';
import type { UnitOfWork } from '../../db/unitOfWork.js';
import type { SessionUser } from '../../platform/sessions.js';

/** A live user looked up by login, with the hash that only the sign-in check reads. */
export interface SignInCandidate {
  user: SessionUser;
  passwordHash: string;
  /** How the account came to be: 'manual' ones keep the platform's password under 'Только вход через SSO'. */
  origin: string;
  /** The directory entry's id of a synced person. */
  directoryId: string | null;
}

export class AuthRepository {
  constructor(private readonly uow: UnitOfWork) {}

  private get db() {
    return this.uow.db;
  }

  async findByLogin(email: string): Promise<SignInCandidate | undefined> {
    const row = await this.db
      .selectFrom('users')
      .innerJoin('roles', 'roles.id', 'users.role_id')
      .select([
        'users.id',
        'users.email',
        'users.first_name',
        'users.last_name',
        'users.department_id',
        'users.password_hash',
        'users.must_change_password',
        'users.origin',
        'users.directory_id',
        'roles.code as role',
        'roles.name as role_name',
      ])
      .where('users.email', '=', email.toLowerCase())
      .where('users.deleted_at', 'is', null)
      .executeTakeFirst();
    if (!row) return undefined;
    const { password_hash, origin, directory_id, ...user } = row;
    return {
      user: { ...user, role: user.role as RoleCode },
      passwordHash: password_hash,
      origin,
      directoryId: directory_id,
    };
  }
}
