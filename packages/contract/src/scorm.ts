import { z } from 'zod';
import { dbIdParam } from './common.js';

/**
 * SCORM packages as lessons (docs/rules.md §SCORM packages). A SCORM item is a lesson whose
 * `kind` is 'scorm': it has the lesson's name, publish switch, place in the module and progress
 * record; its content is the package (versions) and each learner's runtime data per SCO and cycle.
 */

const ok = z.literal(true);

/** What a lesson holds: blocks ('lesson', the default) or a package ('scorm'). */
export const LESSON_KINDS = ['lesson', 'scorm'] as const;
export type LessonKind = (typeof LESSON_KINDS)[number];
export const lessonKind = z.enum(LESSON_KINDS);

export const SCORM_STANDARDS = ['1.2', '2004'] as const;
export type ScormStandard = (typeof SCORM_STANDARDS)[number];

/** Limits of an uploaded package (the archive as uploaded, what it unpacks to). */
export const SCORM_LIMITS = {
  /** 4 GiB: the archive as uploaded. */
  uploadBytes: 4 * 1024 ** 3,
  /** Files in the archive at most. */
  entries: 20_000,
  /** What all files unpack to, at most (counted while unpacking). */
  unpackedBytes: 8 * 1024 ** 3,
  /** imsmanifest.xml at most. */
  manifestBytes: 4 * 1024 ** 2,
  /** cmi.suspend_data: SCORM 2004's limit (1.2 allows 4 096; we keep 2004's for both). */
  suspendDataChars: 64_000,
  /** One commit's body at most (the whole CMI with interactions). */
  commitBytes: 2 * 1024 ** 2,
} as const;

/** Why a package is refused: the Russian texts name the problem (docs/rules.md §SCORM packages). */
export const SCORM_PACKAGE_PROBLEMS = {
  'not-zip': 'Файл не является ZIP-архивом. Загрузите SCORM-пакет в формате .zip',
  corrupt: 'ZIP-архив поврежден и не может быть распакован',
  encrypted: 'ZIP-архив защищен паролем. Загрузите пакет без пароля',
  'unsafe-name': 'В архиве есть файл с недопустимым путем (абсолютный путь или выход за пределы папки)',
  link: 'В архиве есть символическая ссылка. Такие пакеты не принимаются',
  'too-many-entries': 'В архиве слишком много файлов (не более 20 000)',
  'too-large': 'Пакет после распаковки занимает больше 8 ГБ',
  'too-big-upload': 'Файл слишком большой. Максимальный размер SCORM-пакета — 4 ГБ',
  'no-manifest': 'В пакете нет файла imsmanifest.xml (ни в корне архива, ни в единственной папке верхнего уровня)',
  'bad-manifest': 'Файл imsmanifest.xml не удалось прочитать',
  'unknown-version': 'Не удалось определить версию SCORM: поддерживаются SCORM 1.2 и SCORM 2004',
  'no-sco': 'В пакете нет ни одного запускаемого элемента (SCO)',
  'missing-file': 'В пакете нет файла, который указан в imsmanifest.xml для запуска',
} as const;
export type ScormPackageProblem = keyof typeof SCORM_PACKAGE_PROBLEMS;

/** One launchable item of a package, in the organization's order. */
export const scormScoInfo = z.object({
  identifier: z.string(),
  title: z.string(),
});
/** A package version as the constructor shows it. */
export const scormPackageInfo = z.object({
  version: z.number().int(),
  standard: z.enum(SCORM_STANDARDS),
  /** '2nd', '3rd', '4th' for SCORM 2004 when the manifest says so; null otherwise. */
  edition: z.string().nullable(),
  title: z.string(),
  scos: z.array(scormScoInfo),
  /** The pass mark in percent from the manifest (1.2 mastery score, 2004 scaled passing score × 100). */
  mastery_score: z.number().nullable(),
  original_filename: z.string(),
  size: z.number().int(),
  files: z.number().int(),
  uploaded_at: z.string(),
  uploaded_by: z.string().nullable(),
  /** Learners with runtime data of this version. */
  learners: z.number().int(),
});
export type ScormPackageInfo = z.infer<typeof scormPackageInfo>;

export const scormLessonParams = z.object({ courseId: dbIdParam, lessonId: dbIdParam });

/** GET /api/courses/{courseId}/lessons/{lessonId}/scorm (constructor): the current version first. */
export const scormPackagesResponse = z.object({
  result: z.object({ success: ok, versions: z.array(scormPackageInfo) }),
});
/** POST /api/courses/{courseId}/lessons/{lessonId}/scorm (multipart, field `file`): a new version. */
export const scormUploadResponse = z.object({
  result: z.object({ success: ok, message: z.string(), package: scormPackageInfo }),
});

/** A learner's state of one SCO in the current cycle. */
export const scormScoState = z.object({
  identifier: z.string(),
  title: z.string(),
  /** not_started, in_progress (opened, not done), completed (done), failed (the package reported failed). */
  status: z.enum(['completed', 'failed', 'in_progress', 'not_started']),
  /** Percent 0..100 when the package reported a score. */
  score: z.number().nullable(),
});
export type ScormScoState = z.infer<typeof scormScoState>;

/** GET /api/courses/{courseId}/lessons/{lessonId}/scorm/state (learner). */
export const scormLearnerState = z.object({
  lesson_id: z.number().int(),
  name: z.string(),
  version: z.number().int().nullable(),
  standard: z.enum(SCORM_STANDARDS).nullable(),
  scos: z.array(scormScoState),
  status: z.enum(['completed', 'failed', 'in_progress', 'not_started']),
  score: z.number().nullable(),
  completed_at: z.string().nullable(),
});
export type ScormLearnerState = z.infer<typeof scormLearnerState>;
export const scormStateResponse = z.object({ result: z.object({ success: ok, scorm: scormLearnerState }) });

/** POST /api/courses/{courseId}/lessons/{lessonId}/scorm/launch: open (or resume) one SCO. */
export const scormLaunchRequest = z.object({ sco: z.string().min(1).max(255).optional() });
export const scormLaunchResponse = z.object({
  result: z.object({
    success: ok,
    /** The SCO's address (on CONTENT_URL when set): a capability for this learner and run only. */
    url: z.string(),
    /** The origin the frame's messages come from: CONTENT_URL's, or 'null' (a sandboxed frame). */
    origin: z.string(),
    /** The iframe's sandbox attribute. */
    sandbox: z.string(),
    sco: z.string(),
  }),
});
export type ScormLaunch = Omit<z.infer<typeof scormLaunchResponse>['result'], 'success'>;

/** A learner's state of a SCORM item or one of its SCOs, as every screen and export writes it. */
export const SCORM_STATUS_TEXT = {
  completed: 'Пройден',
  failed: 'Не пройден',
  in_progress: 'В процессе',
  not_started: 'Не начат',
} as const;

/** What the runtime in the frame posts to the lesson page after each commit. */
export const SCORM_FRAME_MESSAGE = 'lms-scorm-commit';

export const SCORM_MESSAGES = {
  uploaded: 'SCORM-пакет загружен',
  replaced: 'Загружена новая версия SCORM-пакета',
  notScorm: 'Это не SCORM-урок',
  noPackage: 'SCORM-пакет еще не загружен',
  scoNotFound: 'Такого раздела в пакете нет',
  noFile: 'Выберите файл SCORM-пакета',
  sessionExpired: 'Сеанс SCORM-пакета истек. Откройте урок заново',
} as const;

/** A SCO's score as a percent: scaled (2004) first, then raw within min..max (0..100 when absent). */
export function scorePercent(score: {
  scaled: number | null;
  raw: number | null;
  min: number | null;
  max: number | null;
}): number | null {
  if (score.scaled !== null && Number.isFinite(score.scaled)) return clampPercent(score.scaled * 100);
  if (score.raw === null || !Number.isFinite(score.raw)) return null;
  const min = score.min ?? 0;
  const max = score.max ?? 100;
  if (max <= min) return clampPercent(score.raw);
  return clampPercent(((score.raw - min) / (max - min)) * 100);
}
const clampPercent = (value: number) => Math.round(Math.min(100, Math.max(0, value)));
