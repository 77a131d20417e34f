import { cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { mockHttp, type MockReply } from '../../test/http';
import { renderRoutes, resetToasts } from '../../test/render';
import { attemptResult } from './fixtures';
import TestResultPage from './TestResultPage';

let restore: () => void = () => {};
afterEach(() => {
  restore();
  resetToasts();
});

function setup(reply: MockReply) {
  const mock = mockHttp({ 'GET /api/courses/5/tests/23/70/result': reply });
  restore = mock.restore;
  return renderRoutes(
    [{ path: '/courses/:courseId/test/:testId/:attemptId', Component: TestResultPage }],
    '/courses/5/test/23/70',
  );
}

const ok = (data: unknown): MockReply => ({ status: 200, data });

describe('test result (docs/product.md §Test result)', () => {
  it('a pass: score, texts, next item and answers', async () => {
    const finished = new Date(2026, 2, 4, 13, 7).toISOString();
    setup(
      ok(
        attemptResult(
          {},
          { is_passed: true, score: 80, correct_answers: 4, duration_seconds: 450, finished_at: finished },
        ),
      ),
    );
    expect(await screen.findByRole('heading', { level: 1, name: 'Итоговый тест' })).toBeInTheDocument();
    expect(screen.getByText('Тест пройден')).toBeInTheDocument();
    expect(screen.getByTestId('result-score')).toHaveTextContent('80%');
    expect(screen.getByText('4/5 правильных ответов')).toBeInTheDocument();
    expect(screen.getByText('Затраченное время: 00:07:30')).toBeInTheDocument();
    expect(screen.getByText('Тест сдан 04.03.2026 в 13:07')).toBeInTheDocument();
    expect(screen.getByText('Вы справились с тестом, можно переходить к следующей лекции')).toBeInTheDocument();
    expect(screen.getByText('Попытка 1 из 3')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Пройти еще раз' })).toHaveAttribute('href', '/courses/5/test/23');
    expect(screen.getByRole('link', { name: 'Следующее занятие' })).toHaveAttribute('href', '/courses/5/lesson/31');
    expect(screen.getByRole('link', { name: 'Посмотреть ответы' })).toHaveAttribute(
      'href',
      '/courses/5/test/23/70/result',
    );
    expect(screen.queryByRole('link', { name: 'Вернуться к тесту' })).not.toBeInTheDocument();
  });

  it("a pass with a test next, or with nothing next ('/')", async () => {
    setup(ok(attemptResult({ next_item: { type: 'test', id: 40 } }, { is_passed: true, score: 90 })));
    expect(await screen.findByRole('link', { name: 'Следующее занятие' })).toHaveAttribute(
      'href',
      '/courses/5/test/40',
    );
    restore();
    cleanup();
    setup(ok(attemptResult({ next_item: null }, { is_passed: true, score: 90 })));
    const links = await screen.findAllByRole('link', { name: 'Следующее занятие' });
    expect(links.at(-1)).toHaveAttribute('href', '/');
  });

  it('a fail: back to the test, no next item, no answers when they are hidden', async () => {
    setup(ok(attemptResult({ show_correct_answers: false }, { is_passed: false, score: 40, correct_answers: 2 })));
    expect(await screen.findByText('Тест не пройден')).toBeInTheDocument();
    expect(screen.getByText('Иногда сложно усвоить информацию с первого раза.')).toBeInTheDocument();
    expect(screen.getByText('2/5 правильных ответов')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Вернуться к тесту' })).toHaveAttribute('href', '/courses/5/test/23');
    expect(screen.queryByRole('link', { name: 'Следующее занятие' })).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Посмотреть ответы' })).not.toBeInTheDocument();
  });

  it("no 'Попытка N из M' when blocked or when the limit is 1 or absent", async () => {
    setup(ok(attemptResult({ is_blocked: true }, { attempt_number: 3 })));
    expect(await screen.findByText('Тест не пройден')).toBeInTheDocument();
    expect(screen.queryByText(/^Попытка \d+ из/)).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Пройти еще раз' })).not.toBeInTheDocument();
    restore();
    cleanup();
    setup(ok(attemptResult({ max_attempts: 1 })));
    expect((await screen.findAllByText('Тест не пройден')).length).toBeGreaterThan(0);
    expect(screen.queryByText(/^Попытка \d+ из/)).not.toBeInTheDocument();
  });

  it("shows 'Ошибка: {message}' when the result cannot load", async () => {
    setup({ status: 422, data: { result: { success: false, message: 'Попытка ещё не завершена' } } });
    expect(await screen.findByText('Ошибка: Попытка ещё не завершена')).toBeInTheDocument();
  });
});
