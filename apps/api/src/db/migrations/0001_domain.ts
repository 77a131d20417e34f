import { sql, type CreateTableBuilder, type Kysely } from 'kysely';
import { columnTypes, type DialectKind } from '../dialect.js';

/** The whole domain model of docs/rules.md §Domain model, with the foreign keys and indexes later queries need. */
export function domainMigration(kind: DialectKind) {
  const t = columnTypes(kind);

  const base = <N extends string>(b: CreateTableBuilder<N, never>) => b.addColumn('id', 'integer', t.id);
  const stamps = <N extends string, C extends string>(b: CreateTableBuilder<N, C>) =>
    b
      .addColumn('created_at', t.time, (c) => c.notNull().defaultTo(t.now()))
      .addColumn('updated_at', t.time, (c) => c.notNull().defaultTo(t.now()));
  const bool = (value: boolean) => (value ? t.trueValue : t.falseValue);

  return {
    async up(db: Kysely<unknown>): Promise<void> {
      const s = db.schema;

      await stamps(
        base(s.createTable('roles'))
          .addColumn('code', 'varchar(32)', (c) => c.notNull().unique())
          .addColumn('name', 'varchar(100)', (c) => c.notNull()),
      ).execute();

      await stamps(
        base(s.createTable('departments'))
          .addColumn('name', 'varchar(255)', (c) => c.notNull())
          .addColumn('sort_order', 'integer'),
      ).execute();

      await stamps(
        base(s.createTable('users'))
          .addColumn('first_name', 'varchar(100)', (c) => c.notNull())
          .addColumn('last_name', 'varchar(100)', (c) => c.notNull())
          .addColumn('email', 'varchar(254)', (c) => c.notNull())
          .addColumn('password_hash', 'varchar(255)', (c) => c.notNull())
          .addColumn('position', 'varchar(255)')
          .addColumn('department_id', 'integer', (c) => c.references('departments.id').onDelete('set null'))
          .addColumn('role_id', 'integer', (c) => c.notNull().references('roles.id').onDelete('restrict'))
          .addColumn('photo_path', 'varchar(500)')
          .addColumn('last_activity_at', t.time),
      ).execute();
      await s
        .createIndex('users_email_unique')
        .on('users')
        .expression(sql`lower(email)`)
        .unique()
        .execute();
      await s.createIndex('users_department_idx').on('users').column('department_id').execute();
      await s.createIndex('users_role_idx').on('users').column('role_id').execute();

      await stamps(
        base(s.createTable('sessions'))
          .addColumn('token_hash', 'varchar(64)', (c) => c.notNull().unique())
          .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
          .addColumn('remember', t.bool, (c) => c.notNull().defaultTo(bool(false)))
          .addColumn('expires_at', t.time, (c) => c.notNull())
          .addColumn('last_seen_at', t.time, (c) => c.notNull())
          .addColumn('ip', 'varchar(64)')
          .addColumn('user_agent', 'varchar(500)'),
      ).execute();
      await s.createIndex('sessions_user_idx').on('sessions').column('user_id').execute();

      await stamps(
        base(s.createTable('password_pins'))
          .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
          .addColumn('pin_hash', 'varchar(255)', (c) => c.notNull())
          .addColumn('expires_at', t.time, (c) => c.notNull())
          .addColumn('failed_attempts', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('used_at', t.time),
      ).execute();
      await s.createIndex('password_pins_user_idx').on('password_pins').column('user_id').execute();

      await s
        .createTable('rate_limits')
        .addColumn('key', 'varchar(300)', (c) => c.primaryKey())
        .addColumn('hits', 'integer', (c) => c.notNull())
        .addColumn('window_started_at', t.time, (c) => c.notNull())
        .execute();

      await stamps(
        base(s.createTable('course_categories'))
          .addColumn('name', 'varchar(255)', (c) => c.notNull())
          .addColumn('sort_order', 'integer', (c) => c.notNull().defaultTo(0)),
      ).execute();
      await s
        .createIndex('course_categories_name_unique')
        .on('course_categories')
        .expression(sql`lower(name)`)
        .unique()
        .execute();

      await stamps(
        base(s.createTable('courses'))
          .addColumn('category_id', 'integer', (c) => c.references('course_categories.id').onDelete('cascade'))
          .addColumn('title', 'varchar(150)', (c) => c.notNull())
          .addColumn('description', 'varchar(255)', (c) => c.notNull().defaultTo(''))
          .addColumn('image_path', 'varchar(500)')
          .addColumn('is_published', t.bool, (c) => c.notNull().defaultTo(bool(false)))
          .addColumn('has_deadline', t.bool, (c) => c.notNull().defaultTo(bool(false)))
          .addColumn('deadline_type', 'varchar(20)', (c) => c.notNull().defaultTo('from_enrollment'))
          .addColumn('deadline_value', 'integer', (c) => c.notNull().defaultTo(30))
          .addColumn('deadline_unit', 'varchar(10)', (c) => c.notNull().defaultTo('days'))
          .addColumn('deadline_warning_days', 'integer', (c) => c.notNull().defaultTo(3))
          .addColumn('has_recurrence', t.bool, (c) => c.notNull().defaultTo(bool(false)))
          .addColumn('recurrence_value', 'integer', (c) => c.notNull().defaultTo(365))
          .addColumn('recurrence_unit', 'varchar(10)', (c) => c.notNull().defaultTo('days'))
          .addColumn('accessibility', 'varchar(20)', (c) => c.notNull().defaultTo('enrolled_only'))
          .addColumn('sort_order', 'integer', (c) => c.notNull().defaultTo(0)),
      ).execute();
      await s.createIndex('courses_category_idx').on('courses').columns(['category_id', 'sort_order']).execute();

      const link = async (table: string, left: [string, string], right: [string, string], at: string) => {
        await s
          .createTable(table)
          .addColumn(left[0], 'integer', (c) => c.notNull().references(`${left[1]}.id`).onDelete('cascade'))
          .addColumn(right[0], 'integer', (c) => c.notNull().references(`${right[1]}.id`).onDelete('cascade'))
          .addColumn(at, t.time, (c) => c.notNull().defaultTo(t.now()))
          .addPrimaryKeyConstraint(`${table}_pk`, [left[0], right[0]] as never)
          .execute();
        await s.createIndex(`${table}_${right[0]}_idx`).on(table).column(right[0]).execute();
      };

      await stamps(base(s.createTable('study_groups')).addColumn('name', 'varchar(255)', (c) => c.notNull())).execute();
      await link('department_courses', ['department_id', 'departments'], ['course_id', 'courses'], 'assigned_at');
      await link('group_users', ['group_id', 'study_groups'], ['user_id', 'users'], 'added_at');
      await link('group_courses', ['group_id', 'study_groups'], ['course_id', 'courses'], 'assigned_at');
      await link('user_courses', ['user_id', 'users'], ['course_id', 'courses'], 'assigned_at');

      await stamps(
        base(s.createTable('modules'))
          .addColumn('course_id', 'integer', (c) => c.notNull().references('courses.id').onDelete('cascade'))
          .addColumn('name', 'varchar(255)', (c) => c.notNull())
          .addColumn('sort_order', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('is_published', t.bool, (c) => c.notNull().defaultTo(bool(false)))
          .addColumn('published_at', t.time),
      ).execute();
      await s.createIndex('modules_course_idx').on('modules').columns(['course_id', 'sort_order']).execute();

      await stamps(
        base(s.createTable('lessons'))
          .addColumn('module_id', 'integer', (c) => c.notNull().references('modules.id').onDelete('cascade'))
          .addColumn('name', 'varchar(255)', (c) => c.notNull())
          .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
          .addColumn('image_path', 'varchar(500)')
          .addColumn('is_published', t.bool, (c) => c.notNull().defaultTo(bool(false)))
          .addColumn('sort_order', 'integer', (c) => c.notNull().defaultTo(0)),
      ).execute();
      await s.createIndex('lessons_module_idx').on('lessons').columns(['module_id', 'sort_order']).execute();

      await stamps(
        base(s.createTable('lesson_contents'))
          .addColumn('lesson_id', 'integer', (c) => c.notNull().references('lessons.id').onDelete('cascade'))
          .addColumn('type', 'varchar(20)', (c) => c.notNull())
          .addColumn('content', 'text')
          .addColumn('file_path', 'varchar(500)')
          .addColumn('original_filename', 'varchar(255)')
          .addColumn('sort_order', 'integer', (c) => c.notNull().defaultTo(0)),
      ).execute();
      await s
        .createIndex('lesson_contents_lesson_idx')
        .on('lesson_contents')
        .columns(['lesson_id', 'sort_order'])
        .execute();

      await stamps(
        base(s.createTable('tests'))
          .addColumn('module_id', 'integer', (c) => c.notNull().references('modules.id').onDelete('cascade'))
          .addColumn('name', 'varchar(255)', (c) => c.notNull())
          .addColumn('is_published', t.bool, (c) => c.notNull().defaultTo(bool(false)))
          .addColumn('sort_order', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('passing_score', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('has_timer', t.bool, (c) => c.notNull().defaultTo(bool(false)))
          .addColumn('timer_seconds', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('has_retake_interval', t.bool, (c) => c.notNull().defaultTo(bool(false)))
          .addColumn('retake_interval_seconds', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('has_attempts_limit', t.bool, (c) => c.notNull().defaultTo(bool(false)))
          .addColumn('max_attempts', 'integer', (c) => c.notNull().defaultTo(1))
          .addColumn('has_question_bank', t.bool, (c) => c.notNull().defaultTo(bool(false)))
          .addColumn('question_bank_size', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('randomize_questions', t.bool, (c) => c.notNull().defaultTo(bool(false)))
          .addColumn('randomize_answers', t.bool, (c) => c.notNull().defaultTo(bool(false)))
          .addColumn('show_correct_answers', t.bool, (c) => c.notNull().defaultTo(bool(false))),
      ).execute();
      await s.createIndex('tests_module_idx').on('tests').columns(['module_id', 'sort_order']).execute();

      await stamps(
        base(s.createTable('test_questions'))
          .addColumn('test_id', 'integer', (c) => c.notNull().references('tests.id').onDelete('cascade'))
          .addColumn('title', 'varchar(255)', (c) => c.notNull().defaultTo(''))
          .addColumn('type', 'varchar(10)', (c) => c.notNull().defaultTo('text'))
          .addColumn('question_text', 'varchar(255)', (c) => c.notNull())
          .addColumn('sort_order', 'integer', (c) => c.notNull().defaultTo(0)),
      ).execute();
      await s.createIndex('test_questions_test_idx').on('test_questions').columns(['test_id', 'sort_order']).execute();

      await stamps(
        base(s.createTable('test_answers'))
          .addColumn('question_id', 'integer', (c) => c.notNull().references('test_questions.id').onDelete('cascade'))
          .addColumn('answer_text', 'varchar(255)', (c) => c.notNull())
          .addColumn('is_correct', t.bool, (c) => c.notNull().defaultTo(bool(false)))
          .addColumn('image_path', 'varchar(500)')
          .addColumn('sort_order', 'integer', (c) => c.notNull().defaultTo(0)),
      ).execute();
      await s
        .createIndex('test_answers_question_idx')
        .on('test_answers')
        .columns(['question_id', 'sort_order'])
        .execute();

      await stamps(
        base(s.createTable('lesson_progress'))
          .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
          .addColumn('lesson_id', 'integer', (c) => c.notNull().references('lessons.id').onDelete('cascade'))
          .addColumn('started_at', t.time)
          .addColumn('completed_at', t.time),
      ).execute();
      await s
        .createIndex('lesson_progress_user_lesson_idx')
        .on('lesson_progress')
        .columns(['user_id', 'lesson_id'])
        .execute();
      await s.createIndex('lesson_progress_lesson_idx').on('lesson_progress').column('lesson_id').execute();

      await stamps(
        base(s.createTable('test_attempts'))
          .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
          .addColumn('test_id', 'integer', (c) => c.notNull().references('tests.id').onDelete('cascade'))
          .addColumn('attempt_number', 'integer', (c) => c.notNull())
          .addColumn('started_at', t.time, (c) => c.notNull())
          .addColumn('expires_at', t.time)
          .addColumn('finished_at', t.time)
          .addColumn('open_marker', 'integer')
          .addColumn('question_order', 'text', (c) => c.notNull())
          .addColumn('answer_order', 'text', (c) => c.notNull())
          .addColumn('score', 'integer')
          .addColumn('correct_answers', 'integer')
          .addColumn('is_passed', t.bool),
      ).execute();
      await s
        .createIndex('test_attempts_number_unique')
        .on('test_attempts')
        .columns(['user_id', 'test_id', 'attempt_number'])
        .unique()
        .execute();
      await s
        .createIndex('test_attempts_open_unique')
        .on('test_attempts')
        .columns(['user_id', 'test_id', 'open_marker'])
        .unique()
        .execute();
      await s.createIndex('test_attempts_test_idx').on('test_attempts').column('test_id').execute();

      await s
        .createTable('attempt_answers')
        .addColumn('id', 'integer', t.id)
        .addColumn('attempt_id', 'integer', (c) => c.notNull().references('test_attempts.id').onDelete('cascade'))
        .addColumn('question_id', 'integer', (c) => c.notNull().references('test_questions.id').onDelete('cascade'))
        .addColumn('answer_ids', 'text', (c) => c.notNull())
        .addColumn('answered_at', t.time, (c) => c.notNull())
        .execute();
      await s
        .createIndex('attempt_answers_unique')
        .on('attempt_answers')
        .columns(['attempt_id', 'question_id'])
        .unique()
        .execute();

      await stamps(
        base(s.createTable('files'))
          .addColumn('path', 'varchar(500)', (c) => c.notNull().unique())
          .addColumn('original_filename', 'varchar(255)', (c) => c.notNull())
          .addColumn('mime', 'varchar(150)', (c) => c.notNull())
          .addColumn('size', 'bigint', (c) => c.notNull())
          .addColumn('uploaded_by', 'integer', (c) => c.references('users.id').onDelete('set null')),
      ).execute();

      await db
        .insertInto('roles' as never)
        .values([
          { code: 'admin', name: 'Администратор' },
          { code: 'author', name: 'Автор курсов' },
          { code: 'manager', name: 'Руководитель' },
          { code: 'learner', name: 'Ученик' },
        ] as never)
        .execute();
    },
  };
}
