import type {
  AttemptQuestion,
  AttemptView,
  CourseSummary,
  LearnerBlock,
  LearnerModule,
  LearnerTest,
  LessonContents,
  ModuleItem,
} from '@lms/contract';
import type { AttemptResult } from './queries';

export function item(over: Partial<ModuleItem> & Pick<ModuleItem, 'id' | 'name'>): ModuleItem {
  const type = over.type ?? 'lesson';
  return {
    type,
    image: null,
    link: `/courses/5/${type}/${over.id}`,
    started_at: null,
    completed_at: null,
    is_passed: null,
    ...over,
  };
}

/** Module 1 all done; module 2 with a finished, a started and a failed item; module 3 untouched. */
export const courseModules: LearnerModule[] = [
  {
    id: 1,
    name: 'Введение',
    status: 'complete',
    lessonsList: [
      item({
        id: 11,
        name: 'Знакомство',
        started_at: '2026-03-01T07:00:00.000Z',
        completed_at: '2026-03-01T07:10:00.000Z',
      }),
      item({
        id: 12,
        type: 'test',
        name: 'Входной тест',
        started_at: '2026-03-01T08:00:00.000Z',
        completed_at: '2026-03-01T08:05:00.000Z',
        is_passed: true,
      }),
    ],
  },
  {
    id: 2,
    name: 'Основы',
    status: 'process',
    lessonsList: [
      item({
        id: 21,
        name: 'Правила',
        started_at: '2026-03-02T07:00:00.000Z',
        completed_at: '2026-03-02T07:30:00.000Z',
      }),
      item({ id: 22, name: 'Практика', started_at: '2026-03-03T09:15:00.000Z' }),
      item({
        id: 23,
        type: 'test',
        name: 'Итоговый тест',
        started_at: '2026-03-04T10:00:00.000Z',
        completed_at: '2026-03-04T10:20:00.000Z',
        is_passed: false,
      }),
    ],
  },
  { id: 3, name: 'Заключение', status: 'process', lessonsList: [item({ id: 31, name: 'Итоги' })] },
];

export function summary(over: Partial<CourseSummary> = {}): CourseSummary {
  return {
    id: 5,
    title: 'Охрана труда',
    description: '',
    image: null,
    lessons_count: 5,
    completed_lessons_count: 2,
    tests_count: 2,
    completed_tests_count: 1,
    progress: 43,
    complete: false,
    deadline: null,
    deadline_status: null,
    ...over,
  };
}

export function block(over: Partial<LearnerBlock> & Pick<LearnerBlock, 'id' | 'type'>): LearnerBlock {
  return { content: null, file_path: null, url: null, original_filename: null, sort_order: over.id, ...over };
}

export function lessonContents(over: Partial<LessonContents> = {}): LessonContents {
  return {
    success: true,
    contents: [block({ id: 1, type: 'title', content: 'Заголовок урока' })],
    name: 'Практика',
    started_at: null,
    completed_at: null,
    previous_item: { type: 'lesson', id: 21 },
    next_item: { type: 'test', id: 23 },
    server_time: '2026-03-03T09:20:00.000Z',
    ...over,
  };
}

/* ---------- tests (docs/product.md §Test taking) ---------- */

export function attemptView(over: Partial<AttemptView> & Pick<AttemptView, 'id'>): AttemptView {
  return {
    attempt_number: 1,
    started_at: '2026-03-04T10:00:00.000Z',
    finished_at: '2026-03-04T10:07:30.000Z',
    elapsed_seconds: 450,
    duration_seconds: 450,
    score: 60,
    correct_answers: 3,
    is_passed: false,
    expires_at: null,
    passing_score: 80,
    ...over,
  };
}

export function question(over: Partial<AttemptQuestion> & Pick<AttemptQuestion, 'id'>): AttemptQuestion {
  return {
    question: `Вопрос №${over.id}`,
    type: 'text',
    multiple: false,
    correctAnswers: 1,
    isAnswered: false,
    labels: [],
    options: [
      { id: over.id * 10 + 1, value: `Ответ ${over.id}.1`, is_selected: false },
      { id: over.id * 10 + 2, value: `Ответ ${over.id}.2`, is_selected: false },
      { id: over.id * 10 + 3, value: `Ответ ${over.id}.3`, is_selected: false },
    ],
    ...over,
  };
}

export function learnerTest(over: Partial<LearnerTest> = {}): LearnerTest {
  return {
    id: 23,
    name: 'Итоговый тест',
    questions: [],
    questions_count: 5,
    timer_seconds: 600,
    has_timer: true,
    passing_score: 80,
    retake_interval_seconds: 0,
    max_attempts: 3,
    has_attempts_limit: true,
    is_blocked: false,
    last_attempt: null,
    attempts: [],
    active_attempts: [],
    passed_attempt: null,
    ...over,
  };
}

/** The test's answer, as of `serverTime` on the server's clock. */
export function testAnswer(over: Partial<LearnerTest> = {}, serverTime = '2026-03-04T10:00:30.000Z') {
  return {
    result: {
      success: true,
      test: learnerTest(over),
      previous_item: { type: 'lesson', id: 22 },
      next_item: { type: 'lesson', id: 31 },
      server_time: serverTime,
    },
  };
}

export function attemptResult(
  over: Partial<AttemptResult> = {},
  attempt: Partial<AttemptView> = {},
): { result: { success: true; test: AttemptResult } } {
  return {
    result: {
      success: true,
      test: {
        id: 23,
        name: 'Итоговый тест',
        questions: [],
        questions_count: 5,
        passing_score: 80,
        show_correct_answers: true,
        max_attempts: 3,
        has_attempts_limit: true,
        is_blocked: false,
        attempt: attemptView({ id: 70, ...attempt }),
        next_item: { type: 'lesson', id: 31 },
        ...over,
      },
    },
  };
}
