import type { QuestionStatistic } from '@lms/contract';
import { describe, expect, it } from 'vitest';
import { correctColor, formatAnswerTime, splitStatistics, statisticsHeader } from './testStatistics';

const stat = (id: number): QuestionStatistic => ({
  question_id: id,
  question_text: `Вопрос ${id}`,
  asked: 2,
  answered: 2,
  correct_percent: 50,
  top_wrong_option: null,
  average_seconds: 10,
});

describe('statisticsHeader', () => {
  it.each([
    [1, 'Статистика по 1 завершённой попытке'],
    [2, 'Статистика по 2 завершённым попыткам'],
    [4, 'Статистика по 4 завершённым попыткам'],
    [5, 'Статистика по 5 завершённым попыткам'],
    [11, 'Статистика по 11 завершённым попыткам'],
    [21, 'Статистика по 21 завершённой попытке'],
    [22, 'Статистика по 22 завершённым попыткам'],
    [111, 'Статистика по 111 завершённым попыткам'],
  ])('%i → %s', (n, text) => {
    expect(statisticsHeader(n)).toBe(text);
  });
});

describe('formatAnswerTime', () => {
  it.each([
    [0, '0 с'],
    [0.4, '0 с'],
    [14, '14 с'],
    [14.6, '15 с'],
    [59.4, '59 с'],
    [59.5, '1 мин'],
    [60, '1 мин'],
    [65, '1 мин 5 с'],
    [125.2, '2 мин 5 с'],
    [3600, '60 мин'],
    [-3, '0 с'],
    [Number.NaN, '0 с'],
  ])('%f s → %s', (seconds, text) => {
    expect(formatAnswerTime(seconds)).toBe(text);
  });
});

describe('correctColor', () => {
  it.each([
    [100, 'green'],
    [70, 'green'],
    [69, 'orange'],
    [40, 'orange'],
    [39, 'red'],
    [0, 'red'],
  ])('%i %% → %s', (percent, color) => {
    expect(correctColor(percent)).toBe(color);
  });
});

describe('splitStatistics', () => {
  it('matches the figures to the saved questions by id; the others are deleted', () => {
    const { byId, deleted } = splitStatistics([stat(1), stat(2), stat(3)], [3, 'tmp-1', 1]);
    expect([...byId.keys()].sort()).toEqual([1, 3]);
    expect(byId.get(3)?.question_text).toBe('Вопрос 3');
    expect(deleted.map((q) => q.question_id)).toEqual([2]);
  });

  it('a temporary key never matches', () => {
    expect(splitStatistics([stat(5)], ['5']).deleted).toHaveLength(1);
  });
});
