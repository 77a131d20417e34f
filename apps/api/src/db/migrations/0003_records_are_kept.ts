import { sql, type Kysely } from 'kysely';
import { columnTypes, type DialectKind } from '../dialect.js';

/** A foreign key of a learning record and what it points at. */
interface RecordKey {
  table: string;
  column: string;
  references: string;
}

/** Learning records keep what they refer to: no cascade may reach them (docs/rules.md §Deletion). */
const RECORD_KEYS: RecordKey[] = [
  { table: 'lesson_progress', column: 'user_id', references: 'users' },
  { table: 'lesson_progress', column: 'lesson_id', references: 'lessons' },
  { table: 'test_attempts', column: 'user_id', references: 'users' },
  { table: 'test_attempts', column: 'test_id', references: 'tests' },
  { table: 'attempt_answers', column: 'attempt_id', references: 'test_attempts' },
  { table: 'attempt_answers', column: 'question_id', references: 'test_questions' },
];

const SOFT_DELETED = ['users', 'course_categories', 'courses', 'modules', 'lessons', 'tests', 'test_questions'];

/** JSON held as text until now. */
const JSON_COLUMNS = [
  { table: 'test_attempts', column: 'question_order' },
  { table: 'test_attempts', column: 'answer_order' },
  { table: 'attempt_answers', column: 'answer_ids' },
];

/**
 * Records are sacred: content and users are deleted softly (`deleted_at`), the foreign keys of
 * progress, attempts and answers restrict instead of cascading, the names that must be unique are
 * unique among live rows only, and attempts get JSON columns (question order and the snapshot).
 */
export function recordsAreKeptMigration(kind: DialectKind) {
  const t = columnTypes(kind);

  async function uniqueAmongLive(db: Kysely<unknown>, index: string, table: string, column: string) {
    await db.schema.dropIndex(index).execute();
    await db.schema
      .createIndex(index)
      .on(table)
      .expression(sql`lower(${sql.ref(column)})`)
      .unique()
      .where(sql.ref('deleted_at'), 'is', null)
      .execute();
  }

  async function postgres(db: Kysely<unknown>) {
    for (const key of RECORD_KEYS) {
      const found = await sql<{ conname: string }>`
        select c.conname from pg_constraint c
        join pg_attribute a on a.attrelid = c.conrelid and a.attnum = any(c.conkey)
        where c.conrelid = ${key.table}::regclass and c.contype = 'f' and a.attname = ${key.column}`.execute(db);
      for (const row of found.rows) {
        await sql`alter table ${sql.table(key.table)} drop constraint ${sql.ref(row.conname)}`.execute(db);
      }
      await sql`alter table ${sql.table(key.table)} add constraint ${sql.ref(`${key.table}_${key.column}_fkey`)}
        foreign key (${sql.ref(key.column)}) references ${sql.table(key.references)} (id) on delete restrict`.execute(
        db,
      );
    }
    for (const { table, column } of JSON_COLUMNS) {
      await sql`alter table ${sql.table(table)} alter column ${sql.ref(column)} type jsonb
        using ${sql.ref(column)}::jsonb`.execute(db);
    }
    await db.schema.alterTable('test_attempts').addColumn('snapshot', 'jsonb').execute();
  }

  /**
   * SQLite cannot alter a foreign key: the three record tables are rebuilt (same rows, same ids)
   * with foreign-key enforcement paused, in one transaction, and checked before it commits.
   */
  async function sqlite(db: Kysely<unknown>) {
    const s = db.schema;
    await sql`pragma foreign_keys = off`.execute(db);
    try {
      await sql`begin`.execute(db);
      const rebuilt: Record<string, () => Promise<void>> = {
        lesson_progress: () =>
          s
            .createTable('lesson_progress__new')
            .addColumn('id', 'integer', t.id)
            .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('restrict'))
            .addColumn('lesson_id', 'integer', (c) => c.notNull().references('lessons.id').onDelete('restrict'))
            .addColumn('started_at', t.time)
            .addColumn('completed_at', t.time)
            .addColumn('created_at', t.time, (c) => c.notNull().defaultTo(t.now()))
            .addColumn('updated_at', t.time, (c) => c.notNull().defaultTo(t.now()))
            .execute(),
        test_attempts: () =>
          s
            .createTable('test_attempts__new')
            .addColumn('id', 'integer', t.id)
            .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('restrict'))
            .addColumn('test_id', 'integer', (c) => c.notNull().references('tests.id').onDelete('restrict'))
            .addColumn('attempt_number', 'integer', (c) => c.notNull())
            .addColumn('started_at', t.time, (c) => c.notNull())
            .addColumn('expires_at', t.time)
            .addColumn('finished_at', t.time)
            .addColumn('open_marker', 'integer')
            .addColumn('question_order', t.json, (c) => c.notNull())
            .addColumn('answer_order', t.json, (c) => c.notNull())
            .addColumn('snapshot', t.json)
            .addColumn('score', 'integer')
            .addColumn('correct_answers', 'integer')
            .addColumn('is_passed', t.bool)
            .addColumn('created_at', t.time, (c) => c.notNull().defaultTo(t.now()))
            .addColumn('updated_at', t.time, (c) => c.notNull().defaultTo(t.now()))
            .execute(),
        attempt_answers: () =>
          s
            .createTable('attempt_answers__new')
            .addColumn('id', 'integer', t.id)
            .addColumn('attempt_id', 'integer', (c) => c.notNull().references('test_attempts.id').onDelete('restrict'))
            .addColumn('question_id', 'integer', (c) =>
              c.notNull().references('test_questions.id').onDelete('restrict'),
            )
            .addColumn('answer_ids', t.json, (c) => c.notNull())
            .addColumn('answered_at', t.time, (c) => c.notNull())
            .execute(),
      };
      for (const [table, create] of Object.entries(rebuilt)) {
        const indexes = await sql<{ sql: string }>`
          select sql from sqlite_master where type = 'index' and tbl_name = ${table} and sql is not null`.execute(db);
        const columns = await sql<{ name: string }>`select name from pragma_table_info(${table})`.execute(db);
        const list = sql.join(columns.rows.map((c) => sql.ref(c.name)));
        await create();
        await sql`insert into ${sql.table(`${table}__new`)} (${list}) select ${list} from ${sql.table(table)}`.execute(
          db,
        );
        await sql`drop table ${sql.table(table)}`.execute(db);
        await sql`alter table ${sql.table(`${table}__new`)} rename to ${sql.table(table)}`.execute(db);
        for (const index of indexes.rows) await sql.raw(index.sql).execute(db);
      }
      const broken = await sql`pragma foreign_key_check`.execute(db);
      if (broken.rows.length > 0) throw new Error('foreign keys broken while rebuilding the record tables');
      await sql`commit`.execute(db);
    } catch (error) {
      await sql`rollback`.execute(db);
      throw error;
    } finally {
      await sql`pragma foreign_keys = on`.execute(db);
    }
  }

  return {
    async up(db: Kysely<unknown>): Promise<void> {
      for (const table of SOFT_DELETED) {
        await db.schema.alterTable(table).addColumn('deleted_at', t.time).execute();
      }
      await uniqueAmongLive(db, 'users_email_unique', 'users', 'email');
      await uniqueAmongLive(db, 'course_categories_name_unique', 'course_categories', 'name');
      // /storage looks up what references a file before serving it (docs/rules.md §Uploads).
      for (const [table, column] of [
        ['courses', 'image_path'],
        ['lessons', 'image_path'],
        ['lesson_contents', 'file_path'],
        ['test_answers', 'image_path'],
        ['users', 'photo_path'],
      ] as const) {
        await db.schema.createIndex(`${table}_${column}_idx`).on(table).column(column).execute();
      }
      if (kind === 'postgres') await postgres(db);
      else await sqlite(db);
    },
  };
}
