import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { mockHttp, type MockReply } from '../../test/http';
import { renderRoutes, resetToasts } from '../../test/render';
import { setupUser } from '../../test/user';
import AnswersReviewPage from './AnswersReviewPage';
import { attemptResult, question } from './fixtures';

let restore: () => void = () => {};
afterEach(() => {
  restore();
  resetToasts();
});

function setup(reply: MockReply) {
  const mock = mockHttp({ 'GET /api/courses/5/tests/23/70/result': reply });
  restore = mock.restore;
  renderRoutes(
    [{ path: '/courses/:courseId/test/:testId/:attemptId/result', Component: AnswersReviewPage }],
    '/courses/5/test/23/70/result',
  );
  return setupUser();
}

const questions = [
  question({
    id: 1,
    isAnswered: true,
    options: [
      { id: 11, value: 'Верно', is_correct: true, is_selected: false },
      { id: 12, value: 'Неверно', is_correct: false, is_selected: true },
    ],
  }),
  question({
    id: 2,
    multiple: true,
    correctAnswers: 2,
    isAnswered: true,
    options: [
      { id: 21, value: 'Первый', is_correct: true, is_selected: true },
      { id: 22, value: 'Второй', is_correct: true, is_selected: true },
    ],
  }),
];

describe('answers review (docs/product.md §Answers review)', () => {
  it('marks the correct options and the wrong chosen ones, question by question', async () => {
    const ue = setup({ status: 200, data: attemptResult({ questions, questions_count: 2 }) });
    expect(await screen.findByRole('heading', { name: 'Вопрос №1' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Назад' })).toHaveAttribute('href', '/courses/5');
    expect(screen.getByText('Вопрос 1 из 2')).toBeInTheDocument();
    expect(screen.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '50');
    const right = screen.getByRole('radio', { name: /Верно/ });
    expect(within(right).getByText('Верный ответ')).toBeInTheDocument();
    const wrong = screen.getByRole('radio', { name: /Неверно/ });
    expect(wrong).toBeChecked();
    expect(within(wrong).getByText('Неверный ответ')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Назад' })).toBeDisabled();
    await ue.click(screen.getByRole('button', { name: 'Вперед' }));
    expect(await screen.findByRole('heading', { name: 'Вопрос №2' })).toBeInTheDocument();
    expect(screen.getByText('Несколько верных ответов')).toBeInTheDocument();
    expect(screen.getAllByText('Верный ответ')).toHaveLength(2);
    expect(screen.getByRole('button', { name: 'Вперед' })).toBeDisabled();
    await ue.click(screen.getByRole('button', { name: 'Назад' }));
    expect(await screen.findByRole('heading', { name: 'Вопрос №1' })).toBeInTheDocument();
  });

  it('shows an error icon and the server message when it cannot load', async () => {
    setup({ status: 404, data: { result: { success: false, message: 'Попытка не найдена' } } });
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('Попытка не найдена')).toBeInTheDocument();
    expect(within(alert).getByLabelText('Ошибка')).toBeInTheDocument();
  });
});
