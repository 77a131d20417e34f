import { describe, expect, it } from 'vitest';
import {
  DEFAULT_TIMER_SECONDS,
  attemptStorageKey,
  choose,
  dateAndTime,
  deadlineOnDevice,
  durationText,
  firstUnanswered,
  nextUnanswered,
  percentText,
  questionsText,
  readStoredAttempt,
  remainingSeconds,
  startErrorText,
  storeAttempt,
  waitText,
} from './testLogic';

describe('plural forms (docs/product.md §Test taking)', () => {
  it.each([
    [1, '1 вопрос'],
    [2, '2 вопроса'],
    [4, '4 вопроса'],
    [5, '5 вопросов'],
    [11, '11 вопросов'],
    [21, '21 вопрос'],
    [22, '22 вопроса'],
    [0, '0 вопросов'],
  ])('%i → %s', (n, text) => expect(questionsText(n)).toBe(text));

  it.each([
    [1, '1 процент'],
    [3, '3 процента'],
    [80, '80 процентов'],
    [91, '91 процент'],
  ])('%i → %s', (n, text) => expect(percentText(n)).toBe(text));

  it('days, hours, minutes and seconds', () => {
    expect(durationText(1)).toBe('1 секунда');
    expect(durationText(3)).toBe('3 секунды');
    expect(durationText(45)).toBe('45 секунд');
    expect(durationText(60)).toBe('1 минута');
    expect(durationText(120)).toBe('2 минуты');
    expect(durationText(600)).toBe('10 минут');
    expect(durationText(3600)).toBe('1 час');
    expect(durationText(2 * 3600 + 5 * 60 + 21)).toBe('2 часа 5 минут 21 секунда');
    expect(durationText(5 * 3600)).toBe('5 часов');
    expect(durationText(0)).toBe('0 секунд');
  });

  it('shows the seconds only under one day', () => {
    expect(durationText(86399)).toBe('23 часа 59 минут 59 секунд');
    expect(durationText(86400 + 3600 + 61)).toBe('1 день 1 час 1 минута');
    expect(durationText(2 * 86400 + 30)).toBe('2 дня');
    expect(durationText(5 * 86400)).toBe('5 дней');
  });
});

describe('blocked tests (docs/product.md §Test taking)', () => {
  const now = new Date('2026-03-04T10:00:00.000Z');
  it("reads 'навсегда' without an end and 'сейчас' once the end has passed", () => {
    expect(waitText(null, now)).toBe('навсегда');
    expect(waitText('2026-03-04T09:59:00.000Z', now)).toBe('сейчас');
    expect(waitText('2026-03-04T10:00:00.000Z', now)).toBe('сейчас');
    expect(waitText('2026-03-04T11:30:05.000Z', now)).toBe('1 час 30 минут 5 секунд');
  });

  it('builds the start failure toast', () => {
    expect(startErrorText(undefined, now)).toBe('Ошибка при создании попытки теста');
    expect(startErrorText(null, now)).toBe('Ошибка при создании попытки теста Тест заблокирован навсегда.');
    expect(startErrorText('2026-03-04T10:02:00.000Z', now)).toBe(
      'Ошибка при создании попытки теста Следующая попытка будет доступна через 2 минуты.',
    );
  });
});

describe('countdown (docs/product.md §Test taking)', () => {
  it('is the timer minus the elapsed time, never below 0', () => {
    expect(remainingSeconds(600, 100)).toBe(500);
    expect(remainingSeconds(600, 700)).toBe(0);
    expect(remainingSeconds(600, -5)).toBe(600);
  });
  it('uses 10 when the timer is unset', () => {
    expect(DEFAULT_TIMER_SECONDS).toBe(10);
    expect(remainingSeconds(0, 3)).toBe(7);
    expect(remainingSeconds(null, 0)).toBe(10);
    expect(remainingSeconds(undefined, 20)).toBe(0);
  });
});

describe('countdown to the deadline (issue 30)', () => {
  const loadedAt = Date.parse('2026-03-04T12:00:00.000Z');
  it("is the server's deadline moved onto this device's clock", () => {
    const attempt = { expires_at: '2026-03-04T10:10:00.000Z', elapsed_seconds: 30 };
    // 8 min 20 s left by the server's clock, whatever this device says
    expect(deadlineOnDevice(attempt, 600, '2026-03-04T10:01:40.000Z', loadedAt) - loadedAt).toBe(500_000);
  });
  it('counts timer − elapsed from the load without a deadline or a server time', () => {
    expect(deadlineOnDevice({ expires_at: null, elapsed_seconds: 30 }, 40, undefined, loadedAt) - loadedAt).toBe(
      10_000,
    );
    const attempt = { expires_at: '2026-03-04T10:10:00.000Z', elapsed_seconds: 30 };
    expect(deadlineOnDevice(attempt, 40, undefined, loadedAt) - loadedAt).toBe(10_000);
  });
});

describe('skipping (issue 30)', () => {
  it('goes to the next unanswered question, round to the start, never to the same one', () => {
    expect(nextUnanswered([false, false, false], 0)).toBe(1);
    expect(nextUnanswered([false, false, false], 2)).toBe(0);
    expect(nextUnanswered([true, false, true, false], 3)).toBe(1);
    expect(nextUnanswered([true, false, true], 1)).toBeNull();
    expect(nextUnanswered([true, true], 0)).toBeNull();
    expect(nextUnanswered([false], 0)).toBeNull();
  });
});

describe('attempt flow (docs/product.md §Test taking)', () => {
  it('opens at the first unanswered question', () => {
    expect(firstUnanswered([{ isAnswered: true }, { isAnswered: true }, { isAnswered: false }])).toBe(2);
    expect(firstUnanswered([{ isAnswered: false }, { isAnswered: true }])).toBe(0);
    expect(firstUnanswered([{ isAnswered: true }])).toBe(0);
    expect(firstUnanswered([])).toBe(0);
  });

  it('single choice replaces, multiple toggles', () => {
    expect(choose([1], 2, false)).toEqual([2]);
    expect(choose([], 2, false)).toEqual([2]);
    expect(choose([1], 2, true)).toEqual([1, 2]);
    expect(choose([1, 2], 1, true)).toEqual([2]);
  });

  it('keeps the attempt id under a key per test', () => {
    const data = new Map<string, string>();
    const storage = {
      getItem: (k: string) => data.get(k) ?? null,
      setItem: (k: string, v: string) => void data.set(k, v),
      removeItem: (k: string) => void data.delete(k),
    };
    expect(attemptStorageKey(23)).toBe('lms.test-attempt.23');
    expect(attemptStorageKey(23)).not.toBe(attemptStorageKey(24));
    expect(readStoredAttempt(23, storage)).toBeNull();
    storeAttempt(23, 70, storage);
    expect(data.get('lms.test-attempt.23')).toBe('70');
    expect(readStoredAttempt(23, storage)).toBe(70);
    expect(readStoredAttempt(24, storage)).toBeNull();
    data.set('lms.test-attempt.24', 'garbage');
    expect(readStoredAttempt(24, storage)).toBeNull();
    storeAttempt(23, null, storage);
    expect(readStoredAttempt(23, storage)).toBeNull();
  });

  it('formats the pass date as dd.mm.yyyy and hh:mm', () => {
    const d = new Date(2026, 2, 4, 9, 5);
    expect(dateAndTime(d.toISOString())).toEqual({ date: '04.03.2026', time: '09:05' });
  });
});
