import type { SignInsQuery } from '@lms/contract';
import { sql, type Insertable } from 'kysely';
import type { SignInsTable } from '../../db/schema.js';
import type { UnitOfWork } from '../../db/unitOfWork.js';

export type SignInFilter = Pick<SignInsQuery, 'method' | 'result' | 'search'>;

/** `sign_ins` (added to only; pruned after a year) and `company_settings`. */
export class SignInRepository {
  constructor(private readonly uow: UnitOfWork) {}

  private get db() {
    return this.uow.db;
  }

  async insert(row: Insertable<SignInsTable>): Promise<void> {
    await this.db.insertInto('sign_ins').values(row).execute();
  }

  /** Forgets the sign-ins before `before`; how many went. */
  async prune(before: string): Promise<number> {
    const result = await this.db.deleteFrom('sign_ins').where('at', '<', before).executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  private filtered(filter: SignInFilter) {
    let q = this.db.selectFrom('sign_ins').leftJoin('users', 'users.id', 'sign_ins.user_id');
    if (filter.method) q = q.where('sign_ins.method', '=', filter.method);
    if (filter.result) q = q.where('sign_ins.success', '=', filter.result === 'success');
    const search = filter.search?.trim().toLowerCase();
    if (search) {
      // Read by an admin now and then, a page at a time: a substring needs no index.
      const position = sql.raw(this.uow.kind === 'sqlite' ? 'instr' : 'strpos');
      const name = sql`lower(coalesce(users.last_name || ' ' || users.first_name, ''))`;
      q = q.where(
        sql<boolean>`(${position}(lower(sign_ins.login), ${search}) > 0 or ${position}(${name}, ${search}) > 0)`,
      );
    }
    return q;
  }

  /** One page, newest first (the order of `sign_ins_at_idx`), with the person's name as it is now. */
  async page(filter: SignInFilter, limit: number, offset: number) {
    const [rows, count] = await Promise.all([
      this.filtered(filter)
        .selectAll('sign_ins')
        .select(['users.first_name', 'users.last_name'])
        .orderBy('sign_ins.at', 'desc')
        .orderBy('sign_ins.id', 'desc')
        .limit(limit)
        .offset(offset)
        .execute(),
      this.filtered(filter)
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .executeTakeFirstOrThrow(),
    ]);
    return { rows, total: Number(count.n) };
  }

  async setting(key: string): Promise<string | undefined> {
    return (await this.db.selectFrom('company_settings').select('value').where('key', '=', key).executeTakeFirst())
      ?.value;
  }

  async setSetting(key: string, value: string, by: number, now: string): Promise<void> {
    await this.db
      .insertInto('company_settings')
      .values({ key, value, updated_by: by, updated_at: now })
      .onConflict((oc) => oc.column('key').doUpdateSet({ value, updated_by: by, updated_at: now }))
      .execute();
  }
}
