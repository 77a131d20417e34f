import type { AttemptQuestion } from '@lms/contract';
import { DAY_FORMS, formatCount } from '../../lib/plural';
import { HOUR_FORMS, MINUTE_FORMS, PERCENT_FORMS, QUESTION_FORMS, SECOND_FORMS, TEST_TEXTS as T } from './testTexts';

/** Pure rules of the test screens (docs/product.md §Test taking). */

/** The countdown's length when the test has a timer without a value (docs/product.md §Test taking). */
export const DEFAULT_TIMER_SECONDS = 10;
/** After an automatic finish the learner returns to the course page this much later (docs/product.md §Test taking). */
export const TIMEOUT_REDIRECT_MS = 2000;

const MINUTE = 60;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** '5 вопросов', '1 вопрос', '3 вопроса'. */
export const questionsText = (count: number): string => formatCount(count, QUESTION_FORMS);

/** '80 процентов', '1 процент', '2 процента'. */
export const percentText = (count: number): string => formatCount(count, PERCENT_FORMS);

/**
 * A span of time in words: '1 день 2 часа 5 минут'. Parts that are 0 are left out; the seconds part
 * shows only when the whole span is under one day (docs/product.md §Test taking). Zero is '0 секунд'.
 */
export function durationText(totalSeconds: number): string {
  const s = Math.max(0, Math.floor(totalSeconds));
  const days = Math.floor(s / DAY);
  const hours = Math.floor((s % DAY) / HOUR);
  const minutes = Math.floor((s % HOUR) / MINUTE);
  const seconds = s % MINUTE;
  const parts: string[] = [];
  if (days > 0) parts.push(formatCount(days, DAY_FORMS));
  if (hours > 0) parts.push(formatCount(hours, HOUR_FORMS));
  if (minutes > 0) parts.push(formatCount(minutes, MINUTE_FORMS));
  if (s < DAY && (seconds > 0 || parts.length === 0)) parts.push(formatCount(seconds, SECOND_FORMS));
  return parts.join(' ');
}

/** Whole seconds from `now` until `until`, never below 0. */
export function secondsUntil(until: string, now: Date): number {
  const end = Date.parse(until);
  if (Number.isNaN(end)) return 0;
  return Math.max(0, Math.ceil((end - now.getTime()) / 1000));
}

/**
 * The wait until the next attempt: 'навсегда' when the block has no end (null), 'сейчас' when the
 * end has passed, else the span in words.
 */
export function waitText(blockedUntil: string | null, now: Date): string {
  if (blockedUntil === null) return T.forever;
  const left = secondsUntil(blockedUntil, now);
  return left > 0 ? durationText(left) : T.now;
}

/** The toast of a refused start (docs/product.md §Test taking): the default text and, for a blocked test, why. */
export function startErrorText(blockedUntil: string | null | undefined, now: Date): string {
  if (blockedUntil === undefined) return T.startError;
  if (blockedUntil === null) return T.startError + T.startBlockedForever;
  return T.startError + T.startBlockedUntil(waitText(blockedUntil, now));
}

/** The countdown's length: the timer's seconds, 10 when unset (docs/product.md §Test taking). */
export const timerLength = (timerSeconds: number | null | undefined): number =>
  timerSeconds && timerSeconds > 0 ? timerSeconds : DEFAULT_TIMER_SECONDS;

/** Remaining time = timer − elapsed, never below 0 (docs/product.md §Test taking). */
export function remainingSeconds(timerSeconds: number | null | undefined, elapsedSeconds: number): number {
  return Math.max(0, timerLength(timerSeconds) - Math.max(0, elapsedSeconds));
}

/**
 * The attempt's end on this device's clock, in ms: the server's deadline moved by how far this clock
 * was from the server's when the test was loaded (`loadedAt`, this clock), so that neither a wrong
 * device clock nor timers that stood still (a hidden tab, a sleeping phone) move it. Without a
 * deadline from the server it counts timer − elapsed from the load (docs/product.md §Test taking).
 */
export function deadlineOnDevice(
  attempt: { expires_at: string | null; elapsed_seconds: number },
  timerSeconds: number | null | undefined,
  serverTime: string | undefined,
  loadedAt: number,
): number {
  const end = attempt.expires_at === null ? NaN : Date.parse(attempt.expires_at);
  const server = serverTime === undefined ? NaN : Date.parse(serverTime);
  if (!Number.isNaN(end) && !Number.isNaN(server)) return loadedAt + (end - server);
  return loadedAt + remainingSeconds(timerSeconds, attempt.elapsed_seconds) * 1000;
}

/**
 * Where 'Пропустить' or an answer leads: the next unanswered question after `from`, going round to
 * the start, so that skipped questions come back before the attempt ends; null when no other
 * question is unanswered.
 */
export function nextUnanswered(answered: readonly boolean[], from: number): number | null {
  for (let step = 1; step < answered.length; step++) {
    const at = (from + step) % answered.length;
    if (!answered[at]) return at;
  }
  return null;
}

/** The question shown first: the first one not answered, else the first (docs/product.md §Test taking). */
export function firstUnanswered(questions: readonly Pick<AttemptQuestion, 'isAnswered'>[]): number {
  const at = questions.findIndex((q) => !q.isAnswered);
  return at < 0 ? 0 : at;
}

/** The local storage key that keeps the open attempt's id of a test (docs/product.md §Test taking). */
export const attemptStorageKey = (testId: number): string => `lms.test-attempt.${testId}`;

/** The stored attempt id of a test, or null. Storage may be unavailable (private mode): then null. */
export function readStoredAttempt(
  testId: number,
  storage: Pick<Storage, 'getItem'> | null = safeStorage(),
): number | null {
  const raw = storage?.getItem(attemptStorageKey(testId)) ?? null;
  if (raw === null || !/^\d{1,10}$/.test(raw)) return null;
  const id = Number(raw);
  return id > 0 ? id : null;
}

export function storeAttempt(
  testId: number,
  attemptId: number | null,
  storage: Pick<Storage, 'setItem' | 'removeItem'> | null = safeStorage(),
): void {
  try {
    if (attemptId === null) storage?.removeItem(attemptStorageKey(testId));
    else storage?.setItem(attemptStorageKey(testId), String(attemptId));
  } catch {
    // a full or disabled storage: the server's start continues the attempt anyway
  }
}

function safeStorage(): Storage | null {
  try {
    return typeof window === 'undefined' ? null : window.localStorage;
  } catch {
    return null;
  }
}

/** A single choice replaces the choice; a multiple choice toggles the option (docs/product.md §Test taking). */
export function choose(selected: readonly number[], optionId: number, multiple: boolean): number[] {
  if (!multiple) return [optionId];
  return selected.includes(optionId) ? selected.filter((id) => id !== optionId) : [...selected, optionId];
}

const pad = (n: number): string => String(n).padStart(2, '0');

/** 'dd.mm.yyyy' and 'hh:mm' of a moment in the browser's time zone, for 'Тест сдан {date} в {time}'. */
export function dateAndTime(value: string): { date: string; time: string } {
  const d = new Date(value);
  if (Number.isNaN(d.getTime())) return { date: value, time: '' };
  return {
    date: `${pad(d.getDate())}.${pad(d.getMonth() + 1)}.${d.getFullYear()}`,
    time: `${pad(d.getHours())}:${pad(d.getMinutes())}`,
  };
}
