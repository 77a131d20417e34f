import {
  AUDIT_PER_PAGE_DEFAULT,
  type AuditAction,
  type AuditEntry,
  type AuditQuery,
  type AuditSource,
  type AuditSubject,
  type FieldChange,
  type PersonField,
} from '@lms/contract';
import { toJson } from '../../db/values.js';
import { iso, type Clock } from '../../platform/clock.js';
import { fullName } from '../auth/permissions.js';
import { fieldChanges, type PersonFields } from './changes.js';
import type { AuditRepository, AuditRow } from './repository.js';

const EXPORT_BATCH = 1000;

/** Who made a change: a signed-in person, or nobody for the scheduled directory sync. */
export interface Actor {
  id: number;
  name: string;
}

/** The signed-in person as the audit names them. */
export function actorOf(user: { id: number; first_name: string; last_name: string }): Actor {
  return { id: user.id, name: fullName(user) };
}

/** Where a change came from, recorded with it. */
export interface ChangeOrigin {
  actor: Actor | null;
  source: AuditSource;
  batchId?: number | null;
}

/** A change made by hand on a screen by the signed-in person. */
export const manualBy = (actor: Actor): ChangeOrigin => ({ actor, source: 'manual' });

/** Someone or something a course is assigned to, by name as it is now. */
export interface AssignmentHolder {
  kind: AuditSubject;
  id: number;
  name: string;
}

interface Change {
  action: AuditAction;
  subject: AssignmentHolder;
  course?: { id: number; name: string } | null;
  changes?: FieldChange[];
}

function entryOf(row: AuditRow): AuditEntry {
  return {
    id: row.id,
    at: row.at,
    actor: row.actor_name,
    source: row.source as AuditSource,
    action: row.action as AuditAction,
    subject: row.subject as AuditSubject,
    subject_id: row.subject_id,
    subject_name: row.subject_name,
    course: row.course_name,
    changes: row.field_changes.map((c) => ({ ...c, field: c.field as PersonField })),
  };
}

/**
 * The audit of people changes (docs/rules.md §Audit): every add, edit and delete of an employee and
 * every course assignment, whoever made it (a form, an import, the directory sync). It records in
 * the caller's transaction, so a change and its entry exist together or not at all.
 */
export class AuditService {
  constructor(
    private readonly repo: AuditRepository,
    private readonly clock: Clock,
  ) {}

  async record(origin: ChangeOrigin, changes: readonly Change[]): Promise<void> {
    if (changes.length === 0) return;
    const at = iso(this.clock.now());
    await this.repo.insert(
      changes.map((c) => ({
        at,
        actor_id: origin.actor?.id ?? null,
        actor_name: origin.actor?.name ?? null,
        source: origin.source,
        batch_id: origin.batchId ?? null,
        action: c.action,
        subject: c.subject.kind,
        subject_id: c.subject.id,
        subject_name: c.subject.name,
        course_id: c.course?.id ?? null,
        course_name: c.course?.name ?? null,
        field_changes: toJson(c.changes ?? []),
      })),
    );
  }

  userCreated(origin: ChangeOrigin, user: { id: number; name: string }, fields: PersonFields): Promise<void> {
    const changes = fieldChanges({}, fields);
    return this.record(origin, [{ action: 'user_created', subject: { kind: 'user', ...user }, changes }]);
  }

  /** An edit that changed nothing is not recorded. */
  userUpdated(origin: ChangeOrigin, user: { id: number; name: string }, changes: FieldChange[]): Promise<void> {
    if (changes.length === 0) return Promise.resolve();
    return this.record(origin, [{ action: 'user_updated', subject: { kind: 'user', ...user }, changes }]);
  }

  userDeleted(origin: ChangeOrigin, user: { id: number; name: string }): Promise<void> {
    return this.record(origin, [{ action: 'user_deleted', subject: { kind: 'user', ...user } }]);
  }

  /** Courses assigned to or taken from someone: one entry per course. */
  assignments(
    origin: ChangeOrigin,
    holder: AssignmentHolder,
    change: { added: readonly { id: number; name: string }[]; removed: readonly { id: number; name: string }[] },
  ): Promise<void> {
    return this.record(origin, [
      ...change.added.map((course) => ({ action: 'course_assigned' as const, subject: holder, course })),
      ...change.removed.map((course) => ({ action: 'course_unassigned' as const, subject: holder, course })),
    ]);
  }

  async page(query: AuditQuery) {
    const page = query.page ?? 1;
    const perPage = query.per_page ?? AUDIT_PER_PAGE_DEFAULT;
    const { rows, total } = await this.repo.page(query, perPage, (page - 1) * perPage);
    return { items: rows.map(entryOf), total, page, per_page: perPage };
  }

  /** Every entry of the filters, newest first, a batch at a time (the export). */
  async *listed(query: Omit<AuditQuery, 'page' | 'per_page'>): AsyncGenerator<AuditEntry[]> {
    for (let offset = 0; ; offset += EXPORT_BATCH) {
      const { rows } = await this.repo.page(query, EXPORT_BATCH, offset);
      if (rows.length > 0) yield rows.map(entryOf);
      if (rows.length < EXPORT_BATCH) return;
    }
  }
}
