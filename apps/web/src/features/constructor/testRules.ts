import {
  DEFAULT_TEST_NAME,
  QUESTION_TEXT_MAX,
  TEST_MESSAGES,
  answerImageField,
  type SaveQuestion,
  type TestQuestion,
  type TestSettings,
} from '@lms/contract';

/*
 * The pure rules of the test screens (docs/product.md §Test authoring): the hh:mm:ss
 * time mask, the three-digit fields, the question bank and random order, the question list and
 * what a save sends.
 */

// ── numbers typed as text ──

/** Up to `max` digits of what was typed, nothing else. */
export function digitsOnly(value: string, max = 3): string {
  return value.replace(/\D/g, '').slice(0, max);
}

/** The passing percent as typed: up to 3 digits, clamped to 100 (docs/product.md §Test authoring). */
export function clampPercent(value: string): string {
  const digits = digitsOnly(value, 3);
  if (digits === '') return '';
  return String(Math.min(100, Number(digits)));
}

/** A typed number as sent: empty gives 0. */
export function toNumber(value: string): number {
  const digits = digitsOnly(value, 3);
  return digits === '' ? 0 : Number(digits);
}

// ── the hh:mm:ss mask ──

const pad = (n: number) => String(n).padStart(2, '0');

/**
 * What a time field shows as it is typed: the digits (at most 6) grouped as hh:mm:ss, with the
 * minutes and the seconds capped at 59 once both their digits are there.
 */
export function formatTimeMask(value: string): string {
  const digits = value.replace(/\D/g, '').slice(0, 6);
  const groups = [digits.slice(0, 2), digits.slice(2, 4), digits.slice(4, 6)].filter((g) => g !== '');
  return groups.map((g, i) => (i > 0 && g.length === 2 && Number(g) > 59 ? '59' : g)).join(':');
}

/** The seconds a (possibly half-typed) mask stands for: missing digits count as zeros at the end. */
export function maskToSeconds(value: string): number {
  const digits = formatTimeMask(value).replace(/\D/g, '').padEnd(6, '0');
  const h = Number(digits.slice(0, 2));
  const m = Math.min(59, Number(digits.slice(2, 4)));
  const s = Math.min(59, Number(digits.slice(4, 6)));
  return h * 3600 + m * 60 + s;
}

/** Seconds as the mask shows them: '01:30:00'. Up to 99:59:59. */
export function secondsToMask(seconds: number): string {
  const total = Math.max(0, Math.min(359_999, Math.floor(seconds)));
  return `${pad(Math.floor(total / 3600))}:${pad(Math.floor((total % 3600) / 60))}:${pad(total % 60)}`;
}

// ── test settings ──

/** The settings form: numbers kept as typed text. */
export interface SettingsForm {
  name: string;
  passing_score: string;
  has_timer: boolean;
  timer: string;
  has_retake_interval: boolean;
  retake_interval: string;
  has_attempts_limit: boolean;
  max_attempts: string;
  has_question_bank: boolean;
  question_bank_size: string;
  randomize_questions: boolean;
  randomize_answers: boolean;
  show_correct_answers: boolean;
}

/** A new test's form (docs/product.md §Test authoring: name 'Новый тест', attempts 1, bank size 0). */
export function defaultSettingsForm(): SettingsForm {
  return {
    name: DEFAULT_TEST_NAME,
    passing_score: '0',
    has_timer: false,
    timer: '',
    has_retake_interval: false,
    retake_interval: '',
    has_attempts_limit: false,
    max_attempts: '1',
    has_question_bank: false,
    question_bank_size: '0',
    randomize_questions: false,
    randomize_answers: false,
    show_correct_answers: false,
  };
}

/** The form of a saved test. */
export function settingsFormOf(test: TestSettings & { name: string }): SettingsForm {
  return withBankRule({
    name: test.name,
    passing_score: String(test.passing_score),
    has_timer: test.has_timer,
    timer: test.timer_seconds > 0 ? secondsToMask(test.timer_seconds) : '',
    has_retake_interval: test.has_retake_interval,
    retake_interval: test.retake_interval_seconds > 0 ? secondsToMask(test.retake_interval_seconds) : '',
    has_attempts_limit: test.has_attempts_limit,
    max_attempts: String(test.max_attempts),
    has_question_bank: test.has_question_bank,
    question_bank_size: String(test.question_bank_size),
    randomize_questions: test.randomize_questions,
    randomize_answers: test.randomize_answers,
    show_correct_answers: test.show_correct_answers,
  });
}

/** With the question bank on, random question order is forced off (docs/product.md §Test authoring). */
export function withBankRule<F extends Pick<SettingsForm, 'has_question_bank' | 'randomize_questions'>>(form: F): F {
  return form.has_question_bank ? { ...form, randomize_questions: false } : form;
}

/** Whether the random-order switch may be changed: not while the bank is on. */
export const randomOrderLocked = (form: Pick<SettingsForm, 'has_question_bank'>): boolean => form.has_question_bank;

/** The settings as sent: percent empty → 0, times in seconds. */
export function settingsPayload(form: SettingsForm): TestSettings {
  const f = withBankRule(form);
  return {
    passing_score: Math.min(100, toNumber(f.passing_score)),
    has_timer: f.has_timer,
    timer_seconds: maskToSeconds(f.timer),
    has_retake_interval: f.has_retake_interval,
    retake_interval_seconds: maskToSeconds(f.retake_interval),
    has_attempts_limit: f.has_attempts_limit,
    max_attempts: toNumber(f.max_attempts),
    has_question_bank: f.has_question_bank,
    question_bank_size: toNumber(f.question_bank_size),
    randomize_questions: f.randomize_questions,
    randomize_answers: f.randomize_answers,
    show_correct_answers: f.show_correct_answers,
  };
}

// ── questions ──

export interface DraftAnswer {
  /** The saved id, or a temporary key for a new answer. */
  key: number | string;
  text: string;
  correct: boolean;
  /** The stored image, kept unless replaced. */
  imagePath: string | null;
  /** A newly chosen image, sent with the save. */
  file: File | null;
}

export interface DraftQuestion {
  key: number | string;
  title: string;
  text: string;
  type: 'text' | 'image';
  /** One correct answer (radio) or several (check boxes): the editor's choice, not stored. */
  multiple: boolean;
  answers: DraftAnswer[];
}

let counter = 0;
/** A temporary key for a new question or answer (letters, digits, '-' as the contract allows). */
export function tmpKey(): string {
  counter += 1;
  return `tmp-${Date.now().toString(36)}-${counter}`;
}

export function newAnswer(): DraftAnswer {
  return { key: tmpKey(), text: '', correct: false, imagePath: null, file: null };
}

/** A new question starts with 2 empty answers (docs/product.md §Test authoring). */
export function newQuestion(): DraftQuestion {
  return { key: tmpKey(), title: '', text: '', type: 'text', multiple: false, answers: [newAnswer(), newAnswer()] };
}

export function draftFromQuestions(questions: readonly TestQuestion[]): DraftQuestion[] {
  return [...questions]
    .sort((a, b) => a.sort_order - b.sort_order)
    .map((q) => ({
      key: q.id,
      title: q.title,
      text: q.question_text,
      type: q.type,
      multiple: q.answers.filter((a) => a.is_correct).length > 1,
      answers: q.answers.map((a) => ({
        key: a.id,
        text: a.answer_text,
        correct: a.is_correct,
        imagePath: a.image_path,
        file: null,
      })),
    }));
}

/** The last answer of a question cannot be deleted (docs/product.md §Test authoring). */
export const canDeleteAnswer = (question: Pick<DraftQuestion, 'answers'>): boolean => question.answers.length > 1;

/** Text of a question or answer as typed: at most 255 characters. */
export const limitText = (value: string): string => value.slice(0, QUESTION_TEXT_MAX);

/** Marks an answer correct or not; with one correct answer allowed, the others are unmarked. */
export function markCorrect(question: DraftQuestion, answerKey: DraftAnswer['key'], correct: boolean): DraftQuestion {
  return {
    ...question,
    answers: question.answers.map((a) =>
      a.key === answerKey ? { ...a, correct } : question.multiple || !correct ? a : { ...a, correct: false },
    ),
  };
}

/** Switching to one correct answer keeps only the first of the marked ones. */
export function setMultiple(question: DraftQuestion, multiple: boolean): DraftQuestion {
  if (multiple) return { ...question, multiple };
  let seen = false;
  return {
    ...question,
    multiple,
    answers: question.answers.map((a) => {
      if (!a.correct) return a;
      if (seen) return { ...a, correct: false };
      seen = true;
      return a;
    }),
  };
}

const hasImage = (q: DraftQuestion, a: DraftAnswer) => q.type === 'image' && (a.file !== null || a.imagePath !== null);

/**
 * What a save keeps (docs/product.md §Test authoring): questions with empty text are dropped, answers with empty text
 * are dropped (an answer of an image question is kept when it has its image), and questions left
 * with no answers are dropped.
 */
export function keptQuestions(questions: readonly DraftQuestion[]): DraftQuestion[] {
  return questions
    .map((q) => ({ ...q, text: q.text.trim() }))
    .filter((q) => q.text !== '')
    .map((q) => ({
      ...q,
      answers: q.answers.map((a) => ({ ...a, text: a.text.trim() })).filter((a) => a.text !== '' || hasImage(q, a)),
    }))
    .filter((q) => q.answers.length > 0);
}

/** The first kept question with no correct answer, named in the message; null when all have one. */
export function missingCorrect(questions: readonly DraftQuestion[]): string | null {
  const bad = questions.find((q) => !q.answers.some((a) => a.correct));
  return bad ? TEST_MESSAGES.noCorrect(bad.text) : null;
}

export type SavePlan = { error: string } | { questions: SaveQuestion[]; files: { field: string; file: File }[] };

/** The save of POST /api/admin/tests/{testId}/questions: the questions and the new images, or why not. */
export function planSave(drafts: readonly DraftQuestion[]): SavePlan {
  const kept = keptQuestions(drafts);
  const error = missingCorrect(kept);
  if (error) return { error };
  const files: { field: string; file: File }[] = [];
  const questions = kept.map((q, index): SaveQuestion => {
    const image = q.type === 'image';
    return {
      id: q.key,
      title: q.title,
      type: q.type,
      question_text: q.text,
      sort_order: index,
      answers: q.answers.map((a) => {
        if (image && a.file) files.push({ field: answerImageField(q.key, a.key), file: a.file });
        return { id: a.key, answer_text: a.text, is_correct: a.correct, image_path: image ? a.imagePath : null };
      }),
    };
  });
  return { questions, files };
}
