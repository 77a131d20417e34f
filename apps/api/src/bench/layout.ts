/**
 * The generated organisation's shape, shared by the seeder (organisation.ts) and the load process
 * (load.ts): ids follow from positions because the database is fresh, so the load knows each
 * employee's courses, lessons and tests without asking.
 *
 * - `employees` users (ids 1…N) in `departmentsFor(N)` departments of about 500 people; the first
 *   department-count users are the departments' managers, every other one a learner.
 * - 200 courses in 20 groups of ten; department d studies group (d − 1) mod 20. Each course has 3
 *   modules × 4 lessons and a test of 5 questions per module; course ids 1…200, lesson ids
 *   (course − 1) × 12 + 1…12, test ids (course − 1) × 3 + 1…3. Every seventh course is open to everyone.
 * - Each employee has worked through part of their group's first three courses (the last lesson
 *   started, the others completed).
 * - After them: the author's unpublished courses, then an admin, an admin in department 1 and an author.
 */

export const COURSE_GROUPS = 20;
export const COURSES_PER_GROUP = 10;
export const COURSES = COURSE_GROUPS * COURSES_PER_GROUP;
export const MODULES = 3;
export const LESSONS_PER_MODULE = 4;
export const LESSONS_PER_COURSE = MODULES * LESSONS_PER_MODULE;
export const QUESTIONS_PER_TEST = 5;
export const OPTIONS_PER_QUESTION = 4;
/** Courses an author edits and publishes in the working-day mix (ids after the 200). */
export const DRAFT_COURSES = 5;
export const LESSONS_PER_DRAFT = 3;
/** Courses of its group in which an employee has records. */
export const COURSES_WITH_RECORDS = 3;
const TEAM = 500;

/** A multiple of 20 (each department studies one group), about TEAM people each. */
export const departmentsFor = (employees: number) =>
  COURSE_GROUPS * Math.max(1, Math.ceil(employees / (COURSE_GROUPS * TEAM)));
export const departmentOf = (userId: number, departments: number) => ((userId - 1) % departments) + 1;
/** The c-th course (0…9) of the user's group. */
export const courseOf = (userId: number, c: number) => ((userId - 1) % COURSE_GROUPS) * COURSES_PER_GROUP + c + 1;
export const lessonOf = (course: number, l: number) => (course - 1) * LESSONS_PER_COURSE + l + 1;
export const testOf = (course: number, m: number) => (course - 1) * MODULES + m + 1;
/** Lessons of the user's c-th course with a record (the last one started, the others completed). */
export const lessonsDone = (userId: number, c: number) => (userId + c) % LESSONS_PER_COURSE;
export const draftCourse = (k: number) => COURSES + k + 1;
export const draftLesson = (k: number, l: number) => COURSES * LESSONS_PER_COURSE + k * LESSONS_PER_DRAFT + l + 1;

// prettier-ignore
const SURNAMES = [
  'Иванов', 'Смирнов', 'Кузнецов', 'Попов', 'Васильев', 'Петров', 'Соколов', 'Михайлов', 'Новиков', 'Фёдоров',
  'Морозов', 'Волков', 'Алексеев', 'Лебедев', 'Семёнов', 'Егоров', 'Павлов', 'Козлов', 'Степанов', 'Николаев',
  'Орлов', 'Андреев', 'Макаров', 'Никитин', 'Захаров', 'Зайцев', 'Соловьёв', 'Борисов', 'Яковлев', 'Григорьев',
];
// prettier-ignore
const FIRST_NAMES = [
  'Александр', 'Дмитрий', 'Максим', 'Сергей', 'Андрей', 'Алексей', 'Артём', 'Илья', 'Кирилл', 'Михаил',
  'Анна', 'Мария', 'Елена', 'Ольга', 'Наталья', 'Татьяна', 'Ирина', 'Екатерина', 'Светлана', 'Юлия',
];

/** The name of the user at position i (0-based): 600 combinations, repeated as in a real company. */
export function nameOf(i: number): { first_name: string; last_name: string } {
  const first = Math.floor(i / SURNAMES.length) % FIRST_NAMES.length;
  const female = first >= FIRST_NAMES.length / 2;
  return { first_name: FIRST_NAMES[first] ?? '', last_name: `${SURNAMES[i % SURNAMES.length]}${female ? 'а' : ''}` };
}

/** A deterministic generator (mulberry32), so that two runs send the same requests. */
export function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * What an administrator types into the employees search: beginnings of surnames in any case, whole
 * surnames and first names, a surname with a first name, rare and absent names, e-mail fragments.
 */
export function searchTerms(employees: number, count = 200): string[] {
  const next = random(7);
  const pick = <T>(list: readonly T[]) => list[Math.floor(next() * list.length)] as T;
  const terms: string[] = [];
  for (let i = 0; i < count; i++) {
    const surname = pick(SURNAMES);
    const kinds = [
      () => surname.slice(0, 3 + Math.floor(next() * 3)).toLowerCase(),
      () => surname,
      () => pick(FIRST_NAMES),
      () => `${surname} ${pick(FIRST_NAMES)}`,
      () => `user${Math.floor(next() * employees)}`,
      () => `Отсутствующий${i}`,
    ];
    terms.push(pick(kinds)());
  }
  return terms;
}

/** Request headers of a signed-in browser: session cookie, CSRF cookie and header. */
export type SessionHeaders = Record<string, string>;

/** What the load process needs to know of a seeded organisation (written as JSON by the seeder). */
export interface Fixture {
  employees: number;
  departments: number;
  /** Sessions of every employee: `sessions[i]` belongs to user i + 1. */
  sessions: SessionHeaders[];
  admin: SessionHeaders;
  adminInDepartment: SessionHeaders;
  author: SessionHeaders;
}
