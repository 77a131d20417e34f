import { BANK_FORCES_ORDER_TOOLTIP } from '@lms/contract';
import { describe, expect, it } from 'vitest';
import {
  canDeleteAnswer,
  clampPercent,
  defaultSettingsForm,
  digitsOnly,
  formatTimeMask,
  keptQuestions,
  markCorrect,
  maskToSeconds,
  missingCorrect,
  newQuestion,
  planSave,
  randomOrderLocked,
  secondsToMask,
  setMultiple,
  settingsFormOf,
  settingsPayload,
  withBankRule,
  type DraftAnswer,
  type DraftQuestion,
} from './testRules';
import { T } from './texts';

const answer = (
  key: string | number,
  text: string,
  correct = false,
  extra: Partial<DraftAnswer> = {},
): DraftAnswer => ({
  key,
  text,
  correct,
  imagePath: null,
  file: null,
  ...extra,
});
const question = (key: string | number, text: string, answers: DraftAnswer[], extra: Partial<DraftQuestion> = {}) =>
  ({ key, title: '', text, type: 'text', multiple: false, answers, ...extra }) satisfies DraftQuestion;

describe('the hh:mm:ss mask (docs/product.md §Test authoring)', () => {
  it('groups up to six digits as hh:mm:ss as they are typed', () => {
    expect(formatTimeMask('')).toBe('');
    expect(formatTimeMask('0')).toBe('0');
    expect(formatTimeMask('01')).toBe('01');
    expect(formatTimeMask('013')).toBe('01:3');
    expect(formatTimeMask('0130')).toBe('01:30');
    expect(formatTimeMask('01:30:15')).toBe('01:30:15');
    expect(formatTimeMask('01301599')).toBe('01:30:15');
    expect(formatTimeMask('a1b2')).toBe('12');
  });

  it('caps minutes and seconds at 59, not hours', () => {
    expect(formatTimeMask('007')).toBe('00:7');
    expect(formatTimeMask('0075')).toBe('00:59');
    expect(formatTimeMask('996080')).toBe('99:59:59');
  });

  it('turns a mask into seconds and back', () => {
    expect(maskToSeconds('01:30:15')).toBe(5415);
    expect(maskToSeconds('00:10')).toBe(600);
    expect(maskToSeconds('')).toBe(0);
    expect(maskToSeconds('99:59:59')).toBe(359_999);
    expect(secondsToMask(5415)).toBe('01:30:15');
    expect(secondsToMask(0)).toBe('00:00:00');
    expect(secondsToMask(600)).toBe('00:10:00');
  });
});

describe('three-digit fields and the percent', () => {
  it('keeps at most 3 digits', () => {
    expect(digitsOnly('12a34')).toBe('123');
    expect(digitsOnly('-5')).toBe('5');
  });

  it('clamps the passing percent to 100, empty stays empty and is sent as 0', () => {
    expect(clampPercent('85')).toBe('85');
    expect(clampPercent('100')).toBe('100');
    expect(clampPercent('101')).toBe('100');
    expect(clampPercent('999')).toBe('100');
    expect(clampPercent('1000')).toBe('100');
    expect(clampPercent('')).toBe('');
    expect(settingsPayload({ ...defaultSettingsForm(), passing_score: '' }).passing_score).toBe(0);
  });
});

describe('test settings', () => {
  it('starts a new test as docs/product.md §Test authoring says: «Новый тест», attempts 1, bank 0', () => {
    const form = defaultSettingsForm();
    expect(form.name).toBe('Новый тест');
    expect(settingsPayload(form)).toMatchObject({ max_attempts: 1, question_bank_size: 0, passing_score: 0 });
  });

  it('forces random question order off and locks it while the question bank is on', () => {
    const on = { ...defaultSettingsForm(), randomize_questions: true };
    expect(withBankRule(on).randomize_questions).toBe(true);
    expect(randomOrderLocked(on)).toBe(false);
    const bank = withBankRule({ ...on, has_question_bank: true });
    expect(bank.randomize_questions).toBe(false);
    expect(randomOrderLocked(bank)).toBe(true);
    expect(settingsPayload({ ...on, has_question_bank: true, question_bank_size: '5' })).toMatchObject({
      has_question_bank: true,
      randomize_questions: false,
      question_bank_size: 5,
    });
    expect(T.bankForcesOrder).toBe(BANK_FORCES_ORDER_TOOLTIP);
  });

  it('sends the times in seconds and reads them back as masks', () => {
    const payload = settingsPayload({
      ...defaultSettingsForm(),
      has_timer: true,
      timer: '00:15:00',
      retake_interval: '24',
    });
    expect(payload).toMatchObject({ has_timer: true, timer_seconds: 900, retake_interval_seconds: 86_400 });
    const form = settingsFormOf({ ...payload, name: 'Итоговый тест' });
    expect(form.timer).toBe('00:15:00');
    expect(form.retake_interval).toBe('24:00:00');
  });
});

describe('questions', () => {
  it('starts a new question with 2 empty answers; the last answer cannot be deleted', () => {
    const q = newQuestion();
    expect(q.answers).toHaveLength(2);
    expect(q.answers.every((a) => a.text === '' && !a.correct)).toBe(true);
    expect(canDeleteAnswer(q)).toBe(true);
    expect(canDeleteAnswer({ answers: [q.answers[0]!] })).toBe(false);
  });

  it('keeps one correct answer in single mode, several in multiple mode', () => {
    const q = question(1, 'Вопрос', [answer(1, 'А', true), answer(2, 'Б'), answer(3, 'В')]);
    const single = markCorrect(q, 2, true);
    expect(single.answers.map((a) => a.correct)).toEqual([false, true, false]);
    const multi = markCorrect(setMultiple(single, true), 3, true);
    expect(multi.answers.map((a) => a.correct)).toEqual([false, true, true]);
    expect(setMultiple(multi, false).answers.map((a) => a.correct)).toEqual([false, true, false]);
  });

  it('drops empty questions, empty answers, and questions left without answers', () => {
    const kept = keptQuestions([
      question('a', '  ', [answer('a1', 'Да', true)]),
      question('b', 'Без ответов', [answer('b1', ' '), answer('b2', '')]),
      question('c', ' Столица? ', [answer('c1', 'Москва', true), answer('c2', '')]),
      question('d', 'Картинка', [answer('d1', '', true, { imagePath: 'tests/a.png' }), answer('d2', '')], {
        type: 'image',
      }),
    ]);
    expect(kept.map((q) => q.key)).toEqual(['c', 'd']);
    expect(kept[0]!.text).toBe('Столица?');
    expect(kept[0]!.answers.map((a) => a.key)).toEqual(['c1']);
    expect(kept[1]!.answers.map((a) => a.key)).toEqual(['d1']);
  });

  it('refuses a save while a question has no correct answer, naming the question', () => {
    const list = [question('a', 'Первый', [answer('a1', 'Да', true)]), question('b', 'Второй', [answer('b1', 'Нет')])];
    expect(missingCorrect(keptQuestions(list))).toBe('Вопрос «Второй»: отметьте хотя бы один правильный ответ');
    expect(planSave(list)).toEqual({ error: 'Вопрос «Второй»: отметьте хотя бы один правильный ответ' });
  });

  it('plans the save: questions in order, new images keyed by question and answer', () => {
    const file = new File(['x'], 'a.png', { type: 'image/png' });
    const plan = planSave([
      question('tmp-q', 'Что на картинке?', [answer('tmp-a', '', true, { file }), answer(5, 'Кот', false)], {
        type: 'image',
      }),
      question(7, 'Текст', [answer(8, 'Ответ', true, { imagePath: 'tests/old.png' })]),
    ]);
    if ('error' in plan) throw new Error(plan.error);
    expect(plan.files).toEqual([{ field: 'answer_image.tmp-q.tmp-a', file }]);
    expect(plan.questions).toEqual([
      {
        id: 'tmp-q',
        title: '',
        type: 'image',
        question_text: 'Что на картинке?',
        sort_order: 0,
        answers: [
          { id: 'tmp-a', answer_text: '', is_correct: true, image_path: null },
          { id: 5, answer_text: 'Кот', is_correct: false, image_path: null },
        ],
      },
      {
        id: 7,
        title: '',
        type: 'text',
        question_text: 'Текст',
        sort_order: 1,
        answers: [{ id: 8, answer_text: 'Ответ', is_correct: true, image_path: null }],
      },
    ]);
  });
});
