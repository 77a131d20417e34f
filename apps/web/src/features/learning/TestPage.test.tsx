import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetToasts } from '../../test/render';
import { attemptView, question } from './fixtures';
import { KEY, open, posts, restoreHttp, setup } from './testPageSetup';

beforeEach(() => localStorage.clear());
afterEach(() => {
  restoreHttp();
  resetToasts();
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('test introduction (docs/product.md §Test introduction)', () => {
  it('shows the rows above 0 with their plural forms, and the history', async () => {
    setup({
      questions_count: 5,
      timer_seconds: 600,
      passing_score: 80,
      retake_interval_seconds: 0,
      max_attempts: 3,
      attempts: [attemptView({ id: 60, attempt_number: 1, score: 60, is_passed: false, duration_seconds: 450 })],
    });
    const rows = await screen.findByTestId('test-intro');
    expect(within(rows).getByText('Количество вопросов')).toBeInTheDocument();
    expect(within(rows).getByText('5 вопросов')).toBeInTheDocument();
    expect(within(rows).getByText('10 минут')).toBeInTheDocument();
    expect(within(rows).getByText('80 процентов')).toBeInTheDocument();
    expect(within(rows).getByText('Максимум попыток')).toBeInTheDocument();
    expect(within(rows).getByText('3')).toBeInTheDocument();
    expect(within(rows).queryByText('Интервал между попытками')).not.toBeInTheDocument();
    const history = screen.getByTestId('attempt-history');
    expect(within(history).getByText('Не пройден')).toBeInTheDocument();
    expect(within(history).getByText('00:07:30')).toBeInTheDocument();
    expect(within(history).getByText('60%')).toBeInTheDocument();
    expect(within(history).getByText('80%')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Начать тест' })).toBeEnabled();
    expect(screen.getByRole('link', { name: 'Предыдущий урок' })).toHaveAttribute('href', '/courses/5/lesson/22');
  });

  it('hides the time and attempt rows without a timer or limit; 1 вопрос, 1 час', async () => {
    setup({
      questions_count: 1,
      has_timer: false,
      timer_seconds: 0,
      has_attempts_limit: false,
      retake_interval_seconds: 3600,
    });
    const rows = await screen.findByTestId('test-intro');
    expect(within(rows).getByText('1 вопрос')).toBeInTheDocument();
    expect(within(rows).getByText('1 час')).toBeInTheDocument();
    expect(within(rows).queryByText('Время на прохождение')).not.toBeInTheDocument();
    expect(within(rows).queryByText('Максимум попыток')).not.toBeInTheDocument();
  });

  it("is blocked for ever: 'навсегда' and 'Вы исчерпали все доступные попытки.'", async () => {
    setup({ is_blocked: true, blocked_until: null });
    const notice = await screen.findByTestId('test-blocked');
    expect(within(notice).getByText('Тест заблокирован')).toBeInTheDocument();
    expect(within(notice).getByText('навсегда')).toBeInTheDocument();
    expect(within(notice).getByText('Вы исчерпали все доступные попытки.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Начать тест' })).not.toBeInTheDocument();
  });

  it('is blocked until a time: the wait left', async () => {
    const until = new Date(Date.now() + 2 * 3600_000 + 30 * 60_000 + 500).toISOString();
    setup({ is_blocked: true, blocked_until: until });
    const notice = await screen.findByTestId('test-blocked');
    expect(within(notice).getByText(/^До следующей попытки: 2 часа 30 минут/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Начать тест' })).not.toBeInTheDocument();
  });

  it('cannot start a test without questions', async () => {
    setup({ questions_count: 0 });
    expect(await screen.findByText('Тест не может быть начат')).toBeInTheDocument();
    expect(screen.getByText('Тест не заполнен. Обратитесь к администратору для настройки теста.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Тест недоступен' })).toBeDisabled();
  });

  it("offers 'Продолжить тест' for an open attempt of another browser; the start call continues it", async () => {
    const { ue, requests } = setup(
      { active_attempts: [open] },
      {
        'POST /api/test-attempts/start': {
          status: 200,
          data: { result: { success: true, message: 'Продолжаем тест!', attempt: { id: 70 } } },
        },
      },
      {},
    );
    expect(await screen.findByText('У вас есть незавершенная попытка. Вы можете продолжить тест.')).toBeInTheDocument();
    await ue.click(screen.getByRole('button', { name: 'Продолжить тест' }));
    expect(await screen.findByText('Продолжаем тест!')).toBeInTheDocument();
    expect(posts(requests, '/api/test-attempts/start')).toHaveLength(1);
  });

  it("toasts 'Ошибка при загрузке теста'", async () => {
    setup(
      {},
      {
        'GET /api/courses/5/tests/23': { status: 500, data: { result: { success: false, message: 'Ошибка сервера' } } },
      },
    );
    expect(await screen.findByText('Ошибка при загрузке теста')).toBeInTheDocument();
    expect(screen.getByText('Ошибка: Ошибка сервера')).toBeInTheDocument();
  });

  it('a missing test: "Тест не найден" once, no toast, with the way back to the course (issue 30)', async () => {
    setup(
      {},
      {
        'GET /api/courses/5/tests/23': { status: 404, data: { result: { success: false, message: 'Тест не найден' } } },
      },
    );
    expect(await screen.findByRole('heading', { level: 1, name: 'Тест не найден' })).toBeInTheDocument();
    expect(screen.getAllByText(/не найден/)).toHaveLength(1);
    expect(screen.queryByText('Ошибка при загрузке теста')).not.toBeInTheDocument();
    expect(screen.getAllByRole('link', { name: 'К курсу' }).map((a) => a.getAttribute('href'))).toContain('/courses/5');
  });

  it('toasts a refused start with the block (for ever, or the wait)', async () => {
    const { ue } = setup(
      {},
      {
        'POST /api/test-attempts/start': {
          status: 422,
          data: { result: { success: false, message: 'Вы исчерпали все доступные попытки.', blocked_until: null } },
        },
      },
    );
    await ue.click(await screen.findByRole('button', { name: 'Начать тест' }));
    expect(
      await screen.findByText('Ошибка при создании попытки теста Тест заблокирован навсегда.'),
    ).toBeInTheDocument();
  });

  it('toasts a refused start that is not a block with the default text', async () => {
    const { ue } = setup(
      {},
      {
        'POST /api/test-attempts/start': { status: 500, data: { result: { success: false } } },
      },
    );
    await ue.click(await screen.findByRole('button', { name: 'Начать тест' }));
    expect(await screen.findByText('Ошибка при создании попытки теста')).toBeInTheDocument();
  });
});

describe('test taking (docs/product.md §Test taking)', { timeout: 20_000 }, () => {
  it('starts, answers one at a time, skips the last one left and lands on the result page', async () => {
    const { ue, requests } = setup();
    await ue.click(await screen.findByRole('button', { name: 'Начать тест' }));
    expect(await screen.findByText('Тест начат!')).toBeInTheDocument();
    expect(localStorage.getItem(KEY)).toBe('70');
    expect(await screen.findByRole('heading', { name: 'Вопрос №1' })).toBeInTheDocument();
    expect(screen.getByText('Вопрос 1 из 3')).toBeInTheDocument();
    expect(screen.getByText('Один верный ответ')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Закрыть тест и вернуться к курсу' })).toHaveAttribute(
      'href',
      '/courses/5',
    );
    expect(screen.getByRole('navigation', { name: 'Вопросы теста' })).toBeInTheDocument();

    const answer = screen.getByRole('button', { name: 'Ответить' });
    expect(answer).toBeDisabled();
    // a single choice replaces the choice
    await ue.click(screen.getByRole('radio', { name: /Ответ 1\.1/ }));
    await ue.click(screen.getByRole('radio', { name: /Ответ 1\.2/ }));
    expect(screen.getByRole('radio', { name: /Ответ 1\.1/ })).not.toBeChecked();
    expect(screen.getByRole('radio', { name: /Ответ 1\.2/ })).toBeChecked();
    await ue.click(screen.getByRole('button', { name: 'Ответить' }));
    expect(await screen.findByRole('heading', { name: 'Вопрос №2' })).toBeInTheDocument();
    expect(posts(requests, '/api/test-attempts/save-answers')[0]?.body).toEqual({
      attempt_id: 70,
      answers: [{ test_question_id: 1, answer: [12] }],
    });

    // a multiple choice toggles
    expect(screen.getByText('Несколько верных ответов')).toBeInTheDocument();
    await ue.click(screen.getByRole('checkbox', { name: /Ответ 2\.1/ }));
    await ue.click(screen.getByRole('checkbox', { name: /Ответ 2\.3/ }));
    await ue.click(screen.getByRole('checkbox', { name: /Ответ 2\.1/ }));
    await ue.click(screen.getByRole('checkbox', { name: /Ответ 2\.2/ }));
    await ue.click(screen.getByRole('button', { name: 'Ответить' }));
    expect(await screen.findByRole('heading', { name: 'Вопрос №3' })).toBeInTheDocument();
    expect(posts(requests, '/api/test-attempts/save-answers')[1]?.body).toEqual({
      attempt_id: 70,
      answers: [{ test_question_id: 2, answer: [23, 22] }],
    });

    // back to an answered question through the navigator; its next button leads to the unanswered one
    await ue.click(screen.getByRole('button', { name: 'Вопрос 1' }));
    expect(await screen.findByText('Вопрос уже отвечен')).toBeInTheDocument();
    await ue.click(screen.getByRole('button', { name: 'Следующий вопрос' }));
    expect(await screen.findByRole('heading', { name: 'Вопрос №3' })).toBeInTheDocument();

    // skipping the only unanswered question finishes the attempt once confirmed (issue 30)
    await ue.click(screen.getByRole('button', { name: 'Пропустить' }));
    const dialog = await screen.findByRole('dialog', { name: 'Завершить тест?' });
    await ue.click(within(dialog).getByRole('button', { name: 'Завершить тест' }));
    expect(await screen.findByText('Страница результата')).toBeInTheDocument();
    expect(await screen.findByText('Тест завершен!')).toBeInTheDocument();
    expect(posts(requests, '/api/test-attempts/finish')[0]?.body).toEqual({ attempt_id: 70 });
    expect(localStorage.getItem(KEY)).toBeNull();
  });

  it('continues a stored open attempt with no start call, at the first unanswered question', async () => {
    localStorage.setItem(KEY, '70');
    const answered = [
      question({ id: 1, isAnswered: true, options: [{ id: 11, value: 'Ответ 1.1', is_selected: true }] }),
      question({ id: 2 }),
      question({ id: 3 }),
    ];
    const { ue, requests } = setup({}, {}, { questions: answered }, true);
    expect(await screen.findByText('Продолжаем тест!')).toBeInTheDocument();
    expect(await screen.findByRole('heading', { name: 'Вопрос №2' })).toBeInTheDocument();
    expect(posts(requests, '/api/test-attempts/start')).toHaveLength(0);
    await ue.click(screen.getByRole('button', { name: 'Вопрос 1' }));
    expect(screen.getByText('Вопрос уже отвечен')).toBeInTheDocument();
    expect(screen.getByRole('radio', { name: /Ответ 1\.1/ })).toBeChecked();
  });

  it('forgets a stored attempt that is no longer open', async () => {
    localStorage.setItem(KEY, '69');
    setup();
    expect(await screen.findByRole('button', { name: 'Начать тест' })).toBeInTheDocument();
    expect(localStorage.getItem(KEY)).toBeNull();
  });

  it("shows 'Тест не заполнен' for an attempt without questions", async () => {
    localStorage.setItem(KEY, '70');
    setup({}, {}, { questions: [] }, true);
    expect(await screen.findByText('Тест не заполнен')).toBeInTheDocument();
  });

  it('shows the server message of a failed save as a toast', async () => {
    localStorage.setItem(KEY, '70');
    const { ue } = setup(
      {},
      {
        'POST /api/test-attempts/save-answers': {
          status: 422,
          data: { result: { success: false, message: 'На этот вопрос уже дан другой ответ' } },
        },
      },
      {},
      true,
    );
    await ue.click(await screen.findByRole('radio', { name: /Ответ 1\.1/ }));
    await ue.click(screen.getByRole('button', { name: 'Ответить' }));
    expect(await screen.findByText('На этот вопрос уже дан другой ответ')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Вопрос №1' })).toBeInTheDocument();
  });

  it('alerts when a failed save has no message', async () => {
    localStorage.setItem(KEY, '70');
    const alert = vi.spyOn(window, 'alert').mockImplementation(() => {});
    const { ue } = setup(
      {},
      {
        'POST /api/test-attempts/save-answers': { status: 500, data: {} },
      },
      {},
      true,
    );
    await ue.click(await screen.findByRole('radio', { name: /Ответ 1\.1/ }));
    await ue.click(screen.getByRole('button', { name: 'Ответить' }));
    await waitFor(() => expect(alert).toHaveBeenCalledTimes(1));
  });

  it("toasts 'Ошибка при завершении теста' when the finish fails", async () => {
    localStorage.setItem(KEY, '70');
    const { ue } = setup(
      {},
      {
        'POST /api/test-attempts/finish': { status: 500, data: {} },
      },
      {},
      true,
    );
    await ue.click(await screen.findByRole('button', { name: 'Завершить тест' }));
    const dialog = await screen.findByRole('dialog', { name: 'Завершить тест?' });
    await ue.click(within(dialog).getByRole('button', { name: 'Завершить тест' }));
    expect(await screen.findByText('Ошибка при завершении теста')).toBeInTheDocument();
  });
});

describe('countdown (docs/product.md §Test taking)', () => {
  it('counts down from timer − elapsed, finishes at zero and returns to the course after 2000 ms', async () => {
    vi.useFakeTimers();
    const flush = async () => {
      for (let i = 0; i < 10; i++) await act(() => vi.advanceTimersByTimeAsync(0));
    };
    localStorage.setItem(KEY, '70');
    const { requests } = setup(
      { timer_seconds: 40 },
      {},
      { active_attempts: [{ ...open, elapsed_seconds: 30 }] },
      true,
    );
    await flush();
    // 40 − 30 = 10 seconds
    expect(screen.getByTestId('test-timer')).toHaveTextContent('00:00:10');
    await act(() => vi.advanceTimersByTimeAsync(3000));
    expect(screen.getByTestId('test-timer')).toHaveTextContent('00:00:07');
    await act(() => vi.advanceTimersByTimeAsync(6000));
    expect(screen.getByTestId('test-timer')).toHaveTextContent('00:00:01');
    expect(posts(requests, '/api/test-attempts/finish')).toHaveLength(0);
    await act(() => vi.advanceTimersByTimeAsync(1000));
    await flush();
    expect(posts(requests, '/api/test-attempts/finish')).toHaveLength(1);
    expect(screen.getAllByText('Время теста истекло! Попытка завершена.').length).toBeGreaterThan(0);
    expect(screen.getByText('Время теста истекло!')).toBeInTheDocument();
    expect(localStorage.getItem(KEY)).toBeNull();
    await act(() => vi.advanceTimersByTimeAsync(1900));
    expect(screen.queryByText('Страница курса')).not.toBeInTheDocument();
    await act(() => vi.advanceTimersByTimeAsync(100));
    await flush();
    expect(screen.getByText('Страница курса')).toBeInTheDocument();
  });

  it("shows 'Время теста истекло!' when the time is already up, and toasts a failed automatic finish", async () => {
    localStorage.setItem(KEY, '70');
    setup(
      { timer_seconds: 60 },
      {
        'POST /api/test-attempts/finish': { status: 500, data: {} },
      },
      { active_attempts: [{ ...open, elapsed_seconds: 75 }] },
      true,
    );
    expect(await screen.findByText('Время теста истекло!')).toBeInTheDocument();
    expect(screen.getByText('Попытка будет автоматически завершена.')).toBeInTheDocument();
    expect(screen.getByTestId('test-timer')).toHaveTextContent('00:00:00');
    expect(await screen.findByText('Ошибка при завершении попытки')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Ответить' })).not.toBeInTheDocument();
  });

  it('uses 10 seconds when a timed test has no timer value', async () => {
    localStorage.setItem(KEY, '70');
    setup({ timer_seconds: 0 }, {}, { active_attempts: [{ ...open, elapsed_seconds: 0 }] }, true);
    expect(await screen.findByTestId('test-timer')).toHaveTextContent(/^00:00:(10|09)$/);
  });
});
