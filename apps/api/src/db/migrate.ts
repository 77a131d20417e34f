import { DEFAULT_MIGRATION_TABLE, Migrator, sql, type Kysely, type Migration, type MigrationProvider } from 'kysely';
import type { DialectKind } from './dialect.js';
import { withSchemaIntrospection } from './introspection.js';
import { domainMigration } from './migrations/0001_domain.js';
import { departmentAssignedAtMigration } from './migrations/0002_department_assigned_at.js';
import { recordsAreKeptMigration } from './migrations/0003_records_are_kept.js';
import { openAttemptsMigration } from './migrations/0004_open_attempts.js';
import { usersPageMigration } from './migrations/0005_users_page.js';
import { enrollmentsMigration } from './migrations/0006_enrollments.js';
import { mailLogMigration } from './migrations/0007_mail_log.js';
import { learningStatesMigration } from './migrations/0008_learning_states.js';
import { remindersMigration } from './migrations/0009_reminders.js';
import { learningStateUrgencyMigration } from './migrations/0010_learning_state_urgency.js';
import { liveUserCountMigration } from './migrations/0011_live_user_count.js';
import { userUrgencyMigration } from './migrations/0012_user_urgency.js';
import { courseCardsVersionMigration } from './migrations/0013_course_cards_version.js';
import { testContentVersionMigration } from './migrations/0014_test_content_version.js';
import { viewerVersionsMigration } from './migrations/0015_viewer_versions.js';
import { usersListVersionMigration } from './migrations/0016_users_list_version.js';
import { mailOutboxMigration } from './migrations/0018_mail_outbox.js';
import { ownPasswordMigration } from './migrations/0019_own_password.js';
import { dropViewerVersionsMigration } from './migrations/0020_drop_viewer_versions.js';
import { usersSearchMigration } from './migrations/0021_users_search.js';
import { keptDeclaredMigration } from './migrations/0022_kept_declared.js';
import { courseListVersionMigration } from './migrations/0023_course_list_version.js';
import { peopleChangesMigration } from './migrations/0024_people_changes.js';
import { lineManagerMigration } from './migrations/0025_line_manager.js';
import { signInsMigration } from './migrations/0026_sign_ins.js';
import { scormMigration } from './migrations/0027_scorm.js';
import { certificatesMigration } from './migrations/0028_certificates.js';
import { idempotencyKeysMigration } from './migrations/0029_idempotency_keys.js';
import { attemptFilesMigration } from './migrations/0030_attempt_files.js';
import type { Database } from './schema.js';

/** Migrations in order; each is written once and runs on SQLite and PostgreSQL. */
function migrations(kind: DialectKind): Record<string, Migration> {
  return {
    '0001_domain': domainMigration(kind) as Migration,
    '0002_department_assigned_at': departmentAssignedAtMigration(kind) as Migration,
    '0003_records_are_kept': recordsAreKeptMigration(kind) as Migration,
    '0004_open_attempts': openAttemptsMigration() as Migration,
    '0005_users_page': usersPageMigration() as Migration,
    '0006_enrollments': enrollmentsMigration(kind) as Migration,
    '0007_mail_log': mailLogMigration(kind) as Migration,
    '0008_learning_states': learningStatesMigration(kind) as Migration,
    '0009_reminders': remindersMigration(kind) as Migration,
    '0010_learning_state_urgency': learningStateUrgencyMigration(kind) as Migration,
    '0011_live_user_count': liveUserCountMigration(kind) as Migration,
    '0012_user_urgency': userUrgencyMigration(kind) as Migration,
    '0013_course_cards_version': courseCardsVersionMigration(kind) as Migration,
    '0014_test_content_version': testContentVersionMigration(kind) as Migration,
    '0015_viewer_versions': viewerVersionsMigration(kind) as Migration,
    '0016_users_list_version': usersListVersionMigration(kind) as Migration,
    '0018_mail_outbox': mailOutboxMigration(kind) as Migration,
    '0019_own_password': ownPasswordMigration(kind) as Migration,
    '0020_drop_viewer_versions': dropViewerVersionsMigration(kind) as Migration,
    '0021_users_search': usersSearchMigration(kind) as Migration,
    '0022_kept_declared': keptDeclaredMigration(kind) as Migration,
    '0023_course_list_version': courseListVersionMigration(kind) as Migration,
    '0024_people_changes': peopleChangesMigration(kind) as Migration,
    '0025_line_manager': lineManagerMigration() as Migration,
    '0026_sign_ins': signInsMigration(kind) as Migration,
    '0027_scorm': scormMigration(kind) as Migration,
    '0028_certificates': certificatesMigration(kind) as Migration,
    '0029_idempotency_keys': idempotencyKeysMigration(kind) as Migration,
    '0030_attempt_files': attemptFilesMigration(kind) as Migration,
  };
}

/** Every migration's name, oldest first (a backup made by a newer version names one not here). */
export function migrationNames(): string[] {
  return Object.keys(migrations('sqlite'));
}

class StaticProvider implements MigrationProvider {
  constructor(private readonly kind: DialectKind) {}
  async getMigrations(): Promise<Record<string, Migration>> {
    return migrations(this.kind);
  }
}

/**
 * Brings the schema up to date; a second run changes nothing. Returns the names it applied: tables
 * that code keeps (the learning state) are filled by the start-up afterwards (bootstrap.ts).
 */
export async function migrateToLatest(db: Kysely<Database>, kind: DialectKind, schema?: string): Promise<string[]> {
  return migrateTo(db, kind, undefined, schema);
}

/** Brings the schema to the named migration (the latest when omitted); tests of one migration use it. */
export async function migrateTo(
  db: Kysely<Database>,
  kind: DialectKind,
  target: string | undefined,
  schema?: string,
): Promise<string[]> {
  const migrator = new Migrator({
    // One schema's catalogue, not every schema's (see `schemaIntrospector`).
    db: kind === 'postgres' && schema ? withSchemaIntrospection(db, schema) : db,
    provider: new StaticProvider(kind),
    ...(schema ? { migrationTableSchema: schema } : {}),
  });
  const { error, results } = await (target ? migrator.migrateTo(target) : migrator.migrateToLatest());
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

/**
 * The migrations of this code that the database has not applied (readiness: a process newer than its
 * schema must not take traffic). One small select of Kysely's migration table, which the search path
 * finds as the migrator did, instead of the migrator's listing, which looks the table up in the
 * catalogue first: a balancer asks every few seconds. Rejects when the table cannot be read.
 */
export async function pendingMigrations(db: Kysely<Database>, kind: DialectKind): Promise<string[]> {
  const { rows } = await sql<{ name: string }>`select name from ${sql.table(DEFAULT_MIGRATION_TABLE)}`.execute(db);
  const applied = new Set(rows.map((r) => r.name));
  return Object.keys(migrations(kind)).filter((name) => !applied.has(name));
}
