import { adminUserListResponse, type AdminUserListItem, type AdminUsersQuery } from '@lms/contract';
import type { UnitOfWork } from '../../db/unitOfWork.js';
import type { ReadVersions } from '../../db/versions.js';
import { keepNewest } from '../../lib/kept.js';
import { jsonWriterFor } from '../../platform/serializer.js';
import { fullName } from '../auth/permissions.js';
import type { UserRecord, UsersRepository } from './repository.js';

const DEFAULT_PER_PAGE = 50;
/** Pages of the employees list a process keeps (a page of 50 is ~15 kB). */
const KEPT_PAGES = 500;

export interface UserPage {
  items: AdminUserListItem[];
  total: number;
  page: number;
  per_page: number;
}

/** What a row of the employees list shows of a user. */
export function toListItem(u: UserRecord): AdminUserListItem {
  return {
    id: u.id,
    name: fullName(u),
    first_name: u.first_name,
    last_name: u.last_name,
    login: u.email,
    email: u.email,
    position: u.position,
    department: u.department_id !== null ? { id: u.department_id, name: u.department_name ?? '' } : null,
    roles: { id: u.role_id, name: u.role_name },
    last_activity: u.last_activity_at,
  };
}

/** What the route writes (its schema's writer), for pages sent as text. */
const writePage = jsonWriterFor(adminUserListResponse);
/** Written where a row's last activity goes, then cut out: the kept text is the rest. */
const ACTIVITY_SLOT = 'lms-kept-page-activity-slot';

/**
 * Pages of the employees list (issue 14): what the tab shows, never the whole company. Asked with the
 * versions read with the request's session, a page is kept while the list's version holds (migration
 * 0016) as its JSON text cut where each row's last activity goes; that, which the version leaves out,
 * is read again for the page's rows and put in. Sorted by last activity, a page depends on it and is
 * always read afresh.
 */
export class UserPages {
  readonly #kept = new Map<string, { version: number; ids: readonly number[]; parts: readonly string[] }>();

  constructor(
    private readonly uow: UnitOfWork,
    private readonly repo: UsersRepository,
  ) {}

  /** The JSON text of GET /api/admin/users for a page. */
  async answer(query: AdminUsersQuery, versions?: ReadVersions): Promise<Buffer> {
    // Only committed rows may be kept: never inside a transaction.
    if (!versions || query.sort === 'last_activity' || this.uow.inUnit) return this.written(await this.read(query));
    const key = JSON.stringify([query.page, query.per_page, query.search, query.sort, query.direction]);
    const kept = this.#kept.get(key);
    if (kept?.version === versions.users) {
      const activity = await this.repo.activityOf(kept.ids);
      let text = kept.parts[0] ?? '';
      kept.ids.forEach((id, i) => {
        text += JSON.stringify(activity.get(id) ?? null) + (kept.parts[i + 1] ?? '');
      });
      return Buffer.from(text);
    }
    const fresh = await this.read(query);
    const parts = writePage({
      result: { success: true },
      ...fresh,
      items: fresh.items.map((i) => ({ ...i, last_activity: ACTIVITY_SLOT })),
    }).split(JSON.stringify(ACTIVITY_SLOT));
    // A name or address that contains the slot's text cannot be cut this way: such a page is not kept.
    if (parts.length === fresh.items.length + 1)
      keepNewest(this.#kept, key, { version: versions.users, ids: fresh.items.map((i) => i.id), parts }, KEPT_PAGES);
    return this.written(fresh);
  }

  private written(page: UserPage): Buffer {
    return Buffer.from(writePage({ result: { success: true }, ...page }));
  }

  /** The page as the database has it now. */
  async read(query: AdminUsersQuery): Promise<UserPage> {
    const page = query.page ?? 1;
    const perPage = query.per_page ?? DEFAULT_PER_PAGE;
    const { rows, total } = await this.repo.page({
      search: query.search || undefined,
      sort: query.sort,
      direction: query.direction,
      limit: perPage,
      offset: (page - 1) * perPage,
    });
    return { items: rows.map(toListItem), total, page, per_page: perPage };
  }
}
