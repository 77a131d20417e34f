import type { ColumnType, Generated, Insertable, Selectable, Updateable } from 'kysely';

/**
 * Row types of the domain model (docs/rules.md §Domain model). Times are ISO-8601 UTC strings on both databases
 * (the pg driver is told to return them so); booleans are real booleans and JSON columns parsed
 * values (see columns.ts, which lists every column's kind, and values.ts, which converts them).
 */
type Id = Generated<number>;
type Stamp = Generated<string>;
type Time = string;
/** Soft deletion (docs/rules.md §Deletion): set once, the row vanishes from every screen. */
type DeletedAt = Generated<Time | null>;
/** Read as the parsed value; written as JSON text made by `toJson` (db/values.ts). */
export type Json<T> = ColumnType<T, string, string>;

export interface RolesTable {
  id: Id;
  code: string;
  name: string;
  created_at: Stamp;
  updated_at: Stamp;
}
export interface UsersTable {
  id: Id;
  first_name: string;
  last_name: string;
  email: string;
  password_hash: string;
  position: string | null;
  department_id: number | null;
  /** When the user joined their current department (null: since the account was created). */
  department_assigned_at: Generated<Time | null>;
  role_id: number;
  photo_path: string | null;
  last_activity_at: Time | null;
  /** Whether deadline reminder mails go to the user (issue 16; the manager's digest is not one). */
  reminder_mails: Generated<boolean>;
  digest_mails: Generated<boolean>;
  /** The password came by mail from an administrator: the user sets their own before anything else. */
  must_change_password: Generated<boolean>;
  /** The directory entry's lasting id of a person the directory sync keeps (modules/directory); null otherwise. */
  directory_id: Generated<string | null>;
  /** The employee's line manager (migration 0025): shown on their cards, set by an import, the sync or the edit form. */
  manager_id: Generated<number | null>;
  /** How the account came to be (migration 0026): 'manual', 'import', 'directory' or 'sso'. */
  origin: Generated<string>;
  /** A deleted user's row stays so that their learning records keep their owner. */
  deleted_at: DeletedAt;
  /**
   * What the employees search looks in, written by the database alone (migration 0021): the name in
   * both orders and the address, lower-cased, one per line.
   */
  search_text: ColumnType<string | null, never, never>;
  created_at: Stamp;
  updated_at: Stamp;
}
export interface SessionsTable {
  id: Id;
  token_hash: string;
  user_id: number;
  remember: boolean;
  expires_at: Time;
  last_seen_at: Time;
  ip: string | null;
  user_agent: string | null;
  /** How the user signed in (migration 0026): 'password', 'ldap' or 'oidc'. */
  method: Generated<string>;
  created_at: Stamp;
  updated_at: Stamp;
}
export interface PasswordPinsTable {
  id: Id;
  user_id: number;
  pin_hash: string;
  expires_at: Time;
  failed_attempts: Generated<number>;
  used_at: Time | null;
  created_at: Stamp;
  updated_at: Stamp;
}
export interface RateLimitsTable {
  key: string;
  hits: number;
  window_started_at: Time;
}
/** A POST's idempotency key and, once answered with 2xx, its answer (platform/idempotency.ts). */
export interface IdempotencyKeysTable {
  user_id: number;
  key: string;
  /** `METHOD address` (path and query, as sent) of the request that claimed the key. */
  request: string;
  created_at: Time;
  /** Null while the request runs (or after its process died). */
  status: number | null;
  /** The JSON answer as sent; null when it had none, was not JSON or was too large. */
  body: string | null;
}
export interface DepartmentsTable {
  id: Id;
  name: string;
  sort_order: number | null;
  created_at: Stamp;
  updated_at: Stamp;
}
export interface DepartmentCoursesTable {
  department_id: number;
  course_id: number;
  assigned_at: Time;
}
export interface StudyGroupsTable {
  id: Id;
  name: string;
  created_at: Stamp;
  updated_at: Stamp;
}
export interface GroupUsersTable {
  group_id: number;
  user_id: number;
  added_at: Time;
}
export interface GroupCoursesTable {
  group_id: number;
  course_id: number;
  assigned_at: Time;
}
export interface UserCoursesTable {
  user_id: number;
  course_id: number;
  assigned_at: Time;
}
/** Kept by EnrollmentRepository from the three sources above, in the transaction that changes them. */
export interface EnrollmentsTable {
  user_id: number;
  course_id: number;
  enrolled_at: Time;
  direct: boolean;
  by_department: boolean;
  by_group: boolean;
}
/** A learner's state in a course as the engine decides it (issue 14), owned by progress/states.ts. */
export interface LearningStatesTable {
  user_id: number;
  course_id: number;
  cycle: number;
  cycle_start: Time | null;
  started_at: Time | null;
  completed_at: Time | null;
  lessons_completed: number;
  tests_completed: number;
  deadline: Time | null;
  valid_until: Time | null;
  /** The enrollment's time; null when the pair is kept only for its records. */
  enrolled_at: Time | null;
  /** When the deadline's warning window opens (deadline − the course's warning days). */
  warning_at: Time | null;
}
/** Per user: the most urgent enrolled course as last ranked, and until when that holds (progress/keptRankings.ts). */
export interface UserUrgencyTable {
  user_id: number;
  course_id: number | null;
  /** 0 overdue, 1 almost overdue, 2 in order, null without a deadline. */
  status: number | null;
  deadline: Time | null;
  done: number;
  /** The first moment the ranking may change with time alone; null: only an event changes it. */
  stable_until: Time | null;
}
/** Per course: enrolled learners and published items, kept with the rows they count (progress/states.ts). */
export interface CourseStatsTable {
  course_id: number;
  learners: number;
  lessons_total: number;
  tests_total: number;
}
/**
 * Counts kept by triggers: 'live_users' (migration 0011), 'test_contents_version' (0014, 0022;
 * db/kept.ts declares it); and 'user_urgency_built', the mark of the kept rankings (0012).
 */
export interface CountersTable {
  name: string;
  value: number;
}
/** Reminders sent, one per learner, course, cycle and kind (issue 16), owned by modules/reminders. */
export interface ReminderDeliveriesTable {
  user_id: number;
  course_id: number;
  cycle: number;
  kind: string;
  sent_at: Time;
}
/** Weekly digests handled, one per recipient and week (issue 16), owned by modules/reminders. */
export interface DigestDeliveriesTable {
  user_id: number;
  week: string;
  sent: boolean;
  sent_at: Time;
}
/** Every delivered mail (issue 16), written by the mailer after delivery; owned by modules/mail. */
/** The mail log and outbox (modules/mail): one row per mail, from the moment it is queued. */
export interface MailLogTable {
  id: Id;
  recipient: string;
  user_id: number | null;
  /** A `MailKind` of the contract. */
  kind: string;
  course_id: number | null;
  subject: string;
  /** A `MailStatus` of the contract: 'queued', 'sent' or 'failed'. */
  status: string;
  queued_at: Time;
  sent_at: Time | null;
  /** Tries started so far (a try is counted when a process takes the mail). */
  attempts: Generated<number>;
  /** When a queued mail may be tried next; null once sent or given up. */
  next_attempt_at: Time | null;
  /** Until when failures are retried; a failure after it gives the mail up as 'failed'. */
  retry_until: Time | null;
  /** The process delivering the mail, and until when no other may take it. */
  lease_owner: string | null;
  lease_until: Time | null;
  /** The last failure's reason, in Russian, for the log. */
  last_error: string | null;
  /** Subject-less content (HTML and text), sealed with the app secret; cleared once sent. */
  body: string | null;
}
export interface CourseCategoriesTable {
  id: Id;
  name: string;
  sort_order: Generated<number>;
  deleted_at: DeletedAt;
  created_at: Stamp;
  updated_at: Stamp;
}
export interface CoursesTable {
  id: Id;
  category_id: number | null;
  title: string;
  description: Generated<string>;
  image_path: string | null;
  is_published: Generated<boolean>;
  has_deadline: Generated<boolean>;
  deadline_type: Generated<'from_enrollment' | 'from_start'>;
  deadline_value: Generated<number>;
  deadline_unit: Generated<string>;
  deadline_warning_days: Generated<number>;
  has_recurrence: Generated<boolean>;
  recurrence_value: Generated<number>;
  recurrence_unit: Generated<string>;
  accessibility: Generated<'everyone' | 'enrolled_only' | 'nobody'>;
  sort_order: Generated<number>;
  deleted_at: DeletedAt;
  created_at: Stamp;
  updated_at: Stamp;
}
export interface ModulesTable {
  id: Id;
  course_id: number;
  name: string;
  sort_order: Generated<number>;
  is_published: Generated<boolean>;
  published_at: Time | null;
  deleted_at: DeletedAt;
  created_at: Stamp;
  updated_at: Stamp;
}
export interface LessonsTable {
  id: Id;
  module_id: number;
  name: string;
  description: Generated<string>;
  image_path: string | null;
  is_published: Generated<boolean>;
  sort_order: Generated<number>;
  /** 'lesson' (blocks) or 'scorm' (a package, modules/scorm). */
  kind: Generated<'lesson' | 'scorm'>;
  deleted_at: DeletedAt;
  created_at: Stamp;
  updated_at: Stamp;
}
export interface LessonContentsTable {
  id: Id;
  lesson_id: number;
  type: string;
  content: string | null;
  file_path: string | null;
  original_filename: string | null;
  sort_order: Generated<number>;
  created_at: Stamp;
  updated_at: Stamp;
}
export interface TestsTable {
  id: Id;
  module_id: number;
  name: string;
  is_published: Generated<boolean>;
  sort_order: Generated<number>;
  passing_score: Generated<number>;
  has_timer: Generated<boolean>;
  timer_seconds: Generated<number>;
  has_retake_interval: Generated<boolean>;
  retake_interval_seconds: Generated<number>;
  has_attempts_limit: Generated<boolean>;
  max_attempts: Generated<number>;
  has_question_bank: Generated<boolean>;
  question_bank_size: Generated<number>;
  randomize_questions: Generated<boolean>;
  randomize_answers: Generated<boolean>;
  show_correct_answers: Generated<boolean>;
  deleted_at: DeletedAt;
  created_at: Stamp;
  updated_at: Stamp;
}
export interface TestQuestionsTable {
  id: Id;
  test_id: number;
  title: Generated<string>;
  type: Generated<'text' | 'image'>;
  question_text: string;
  sort_order: Generated<number>;
  deleted_at: DeletedAt;
  created_at: Stamp;
  updated_at: Stamp;
}
export interface TestAnswersTable {
  id: Id;
  question_id: number;
  answer_text: string;
  is_correct: Generated<boolean>;
  image_path: string | null;
  sort_order: Generated<number>;
  created_at: Stamp;
  updated_at: Stamp;
}
export interface LessonProgressTable {
  id: Id;
  user_id: number;
  lesson_id: number;
  started_at: Time | null;
  completed_at: Time | null;
  created_at: Stamp;
  updated_at: Stamp;
}
export interface TestAttemptsTable {
  id: Id;
  user_id: number;
  test_id: number;
  attempt_number: number;
  started_at: Time;
  expires_at: Time | null;
  finished_at: Time | null;
  /** Non-null only while the attempt is open; unique per (user, test), so one open attempt at most. */
  open_marker: number | null;
  /** The drawn question ids in the attempt's order. */
  question_order: Json<number[]>;
  /** Option ids of each question in the attempt's order, by question id. */
  answer_order: Json<Record<string, number[]>>;
  /** The questions and options as they were when the attempt started (docs/rules.md §Attempt snapshot). */
  snapshot: ColumnType<unknown, string | null | undefined, string | null>;
  score: number | null;
  correct_answers: number | null;
  is_passed: boolean | null;
  created_at: Stamp;
  updated_at: Stamp;
}
/** A file an attempt's snapshot names (an option's image): kept by the cleanup, readable by the learner. */
export interface AttemptFilesTable {
  attempt_id: number;
  path: string;
}
export interface AttemptAnswersTable {
  id: Id;
  attempt_id: number;
  question_id: number;
  answer_ids: Json<number[]>;
  answered_at: Time;
}
export interface FilesTable {
  id: Id;
  path: string;
  original_filename: string;
  mime: string;
  size: number;
  uploaded_by: number | null;
  created_at: Stamp;
  updated_at: Stamp;
}

/** A dry run of an import or a directory sync (modules/people): owned by modules/people. */
export interface PeopleBatchesTable {
  id: Id;
  /** 'import' or 'directory'. */
  source: string;
  /** 'previewed' or 'applied'. */
  status: string;
  file_name: string | null;
  created_by: number | null;
  created_at: Time;
  applied_at: Time | null;
  plan_options: Json<{ create_departments: boolean; delete_missing: boolean; send_welcome: boolean }>;
  plan_counts: Json<{ create: number; update: number; unchanged: number; delete: number; error: number }>;
  new_departments: Json<string[]>;
  /** What the plan came to (people/plan.ts `fingerprint`): applying must come to the same. */
  fingerprint: string;
}
/** A row of a batch, in file order (`position`); owned by modules/people. */
export interface PeopleBatchRowsTable {
  batch_id: number;
  position: number;
  line: number | null;
  action: string;
  email: string;
  name: string;
  user_id: number | null;
  field_changes: Json<{ field: string; before: string | null; after: string | null }[]>;
  row_errors: Json<string[]>;
  /** The person as the file or the directory gave them (people/plan.ts `PersonInput`). */
  person: Json<{ cells: Record<string, string>; directoryId?: string; disabled?: boolean }> | null;
}
/** The audit of people changes (modules/audit): written once, never changed. */
export interface PeopleChangesTable {
  id: Id;
  at: Time;
  actor_id: number | null;
  actor_name: string | null;
  /** An `AuditSource` of the contract. */
  source: string;
  batch_id: number | null;
  /** An `AuditAction` of the contract. */
  action: string;
  /** An `AuditSubject` of the contract: 'user', 'department' or 'group'. */
  subject: string;
  subject_id: number;
  subject_name: string;
  course_id: number | null;
  course_name: string | null;
  field_changes: Json<{ field: string; before: string | null; after: string | null }[]>;
}
/** New employees whose invitation mail is still to be sent (modules/people `WelcomeQueue`). */
export interface WelcomeQueueTable {
  user_id: number;
  queued_at: Time;
  /** The platform's address the invitation links to, as the import's request had it. */
  site: string;
}

/** The journal of sign-ins (modules/signins): added to only, pruned after a year. */
export interface SignInsTable {
  id: Generated<number>;
  at: Time;
  user_id: number | null;
  login: string;
  method: string;
  success: boolean;
  failure: string | null;
  ip: string;
  user_agent: string | null;
}
/** The admin's settings of the company (modules/signins), one row per key. */
export interface CompanySettingsTable {
  key: string;
  value: string;
  updated_by: number | null;
  updated_at: Time;
}

/** A SCORM package version of a lesson (issue 34), owned by modules/scorm. */
export interface ScormPackagesTable {
  id: Id;
  lesson_id: number;
  version: number;
  standard: '1.2' | '2004';
  edition: string | null;
  title: string;
  /** The launchable items in order, as the manifest gave them (modules/scorm/package/manifest.ts). */
  scos: Json<StoredSco[]>;
  /** Folder under `scorm/` of the file store holding the unpacked files (platform/fileStore). */
  folder: string;
  original_filename: string;
  size: number;
  files: number;
  unpacked_bytes: number;
  uploaded_by: number | null;
  created_at: Stamp;
  updated_at: Stamp;
}
/** A launchable item of a package, as its manifest gives it (modules/scorm/package/manifest.ts). */
export interface StoredSco {
  /** The <item>'s identifier: the key of the learner's runtime data. */
  identifier: string;
  title: string;
  /** Address relative to the package's folder: URL-encoded path, query (with the item's parameters), fragment. */
  launch: string;
  /** The file the launch address names, decoded, relative to the package's folder. */
  path: string;
  /** scormType 'sco': it talks to the runtime API; otherwise an asset, launched without one. */
  isSco: boolean;
  /** SCORM 1.2 adlcp:masteryscore, 0..100. */
  masteryScore: number | null;
  /** SCORM 2004: the primary objective's minNormalizedMeasure when it is satisfied by measure, -1..1. */
  scaledPassingScore: number | null;
  /** SCORM 2004 adlcp:completionThreshold, 0..1. */
  completionThreshold: number | null;
  /** adlcp:dataFromLMS (2004) / adlcp:datafromlms (1.2): cmi.launch_data. */
  dataFromLms: string | null;
}
/** A learner's runtime data of one SCO of one package version in one cycle, owned by modules/scorm. */
export interface ScormRunsTable {
  id: Id;
  user_id: number;
  lesson_id: number;
  package_id: number;
  sco: string;
  started_at: Time;
  status: Generated<'completed' | 'failed' | 'in_progress'>;
  completion_status: string | null;
  success_status: string | null;
  score: number | null;
  done_at: Time | null;
  location: string | null;
  suspend_data: string | null;
  exit: string | null;
  total_seconds: Generated<number>;
  session_seconds: Generated<number>;
  launches: Generated<number>;
  /** The rest of the CMI the package committed (interactions, objectives, raw scores…), for resuming. */
  cmi: ColumnType<unknown, string | null | undefined, string | null>;
  created_at: Stamp;
  updated_at: Stamp;
}
/** Per course: whether completing it issues a certificate, and what the certificate says (modules/certificates). */
export interface CertificateSettingsTable {
  course_id: number;
  enabled: boolean;
  title: string;
  signer_name: string | null;
  signer_position: string | null;
  /** A stored image (storage/), the company's logo on the certificate. */
  logo_path: string | null;
  updated_by: number | null;
  updated_at: Time;
}
/** A certificate of completion, one per learner, course and cycle (issue 35), owned by modules/certificates. */
export interface CertificatesTable {
  id: Id;
  /** Unguessable, public: the verification page's address. */
  number: string;
  user_id: number;
  course_id: number;
  cycle: number;
  learner_name: string;
  /** Name and number in lower case (Russian locale), for the admin list's search. */
  search_text: string;
  course_title: string;
  title: string;
  signer_name: string | null;
  signer_position: string | null;
  logo_path: string | null;
  completed_at: Time;
  /** The next re-certification (the cycle's end); null when the course does not recur. */
  valid_until: Time | null;
  issued_at: Time;
  revoked_at: Time | null;
  revoked_by: number | null;
  revoke_reason: string | null;
}
export interface Database {
  roles: RolesTable;
  users: UsersTable;
  sessions: SessionsTable;
  password_pins: PasswordPinsTable;
  rate_limits: RateLimitsTable;
  idempotency_keys: IdempotencyKeysTable;
  departments: DepartmentsTable;
  department_courses: DepartmentCoursesTable;
  study_groups: StudyGroupsTable;
  group_users: GroupUsersTable;
  group_courses: GroupCoursesTable;
  user_courses: UserCoursesTable;
  enrollments: EnrollmentsTable;
  learning_states: LearningStatesTable;
  user_urgency: UserUrgencyTable;
  course_stats: CourseStatsTable;
  reminder_deliveries: ReminderDeliveriesTable;
  digest_deliveries: DigestDeliveriesTable;
  mail_log: MailLogTable;
  counters: CountersTable;
  course_categories: CourseCategoriesTable;
  courses: CoursesTable;
  modules: ModulesTable;
  lessons: LessonsTable;
  lesson_contents: LessonContentsTable;
  tests: TestsTable;
  test_questions: TestQuestionsTable;
  test_answers: TestAnswersTable;
  lesson_progress: LessonProgressTable;
  test_attempts: TestAttemptsTable;
  attempt_files: AttemptFilesTable;
  attempt_answers: AttemptAnswersTable;
  files: FilesTable;
  people_batches: PeopleBatchesTable;
  people_batch_rows: PeopleBatchRowsTable;
  people_changes: PeopleChangesTable;
  welcome_queue: WelcomeQueueTable;
  sign_ins: SignInsTable;
  company_settings: CompanySettingsTable;
  scorm_packages: ScormPackagesTable;
  scorm_runs: ScormRunsTable;
  certificate_settings: CertificateSettingsTable;
  certificates: CertificatesTable;
}

export type UserRow = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
export type UserUpdate = Updateable<UsersTable>;
export type SessionRow = Selectable<SessionsTable>;
