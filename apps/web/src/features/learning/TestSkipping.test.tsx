import { screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { MockReply } from '../../test/http';
import { resetToasts } from '../../test/render';
import { question } from './fixtures';
import { KEY, posts, restoreHttp, setup } from './testPageSetup';

beforeEach(() => {
  localStorage.clear();
  localStorage.setItem(KEY, '70');
});
afterEach(() => {
  restoreHttp();
  resetToasts();
});

const heading = (n: number) => screen.findByRole('heading', { name: `Вопрос №${n}` });
const FINISH = '/api/test-attempts/finish';

/** Issue 30 item 1: skipping is not losing; an attempt with unanswered questions ends only when confirmed. */
describe('skipping questions and finishing (issue 30)', { timeout: 20_000 }, () => {
  it('skips to the next unanswered question, comes back to skipped ones and never finishes on the last in the list', async () => {
    const { ue, requests } = setup({}, {}, {}, true);
    expect(await heading(1)).toBeInTheDocument();
    await ue.click(screen.getByRole('button', { name: 'Пропустить' }));
    expect(await heading(2)).toBeInTheDocument();
    await ue.click(screen.getByRole('button', { name: 'Пропустить' }));
    expect(await heading(3)).toBeInTheDocument();
    // skipping the last one in the list goes back to the first skipped one
    await ue.click(screen.getByRole('button', { name: 'Пропустить' }));
    expect(await heading(1)).toBeInTheDocument();
    await ue.click(screen.getByRole('button', { name: 'Вопрос 3' }));
    // answering the last question of the list while 1 and 2 are skipped: back to question 1
    await ue.click(screen.getByRole('radio', { name: /Ответ 3\.2/ }));
    await ue.click(screen.getByRole('button', { name: 'Ответить' }));
    expect(await heading(1)).toBeInTheDocument();
    expect(screen.getByText('Отвечено: 1 из 3')).toBeInTheDocument();
    expect(posts(requests, FINISH)).toHaveLength(0);
  });

  it('asks before skipping the only question left, and finishes once every question is answered', async () => {
    const answered = (id: number) =>
      question({ id, isAnswered: true, options: [{ id: id * 10 + 1, value: `Ответ ${id}.1`, is_selected: true }] });
    const { ue, requests } = setup(
      {},
      {},
      { questions: [answered(1), question({ id: 2, multiple: true, correctAnswers: 2 }), answered(3)] },
      true,
    );
    expect(await heading(2)).toBeInTheDocument();
    await ue.click(screen.getByRole('button', { name: 'Пропустить' }));
    const dialog = await screen.findByRole('dialog', { name: 'Завершить тест?' });
    expect(within(dialog).getByText('Вы не ответили на 1 вопрос.')).toBeInTheDocument();
    await ue.click(within(dialog).getByRole('button', { name: 'Вернуться к вопросам' }));
    expect(await heading(2)).toBeInTheDocument();
    expect(posts(requests, FINISH)).toHaveLength(0);

    await ue.click(screen.getByRole('checkbox', { name: /Ответ 2\.1/ }));
    await ue.click(screen.getByRole('checkbox', { name: /Ответ 2\.2/ }));
    await ue.click(screen.getByRole('button', { name: 'Ответить' }));
    expect(await screen.findByText('Страница результата')).toBeInTheDocument();
    expect(posts(requests, FINISH)).toHaveLength(1);
    expect(posts(requests, '/api/test-attempts/save-answers').map((r) => r.body)).toEqual([
      { attempt_id: 70, answers: [{ test_question_id: 2, answer: [21, 22] }] },
    ]);
  });

  it("finishes early only when confirmed, saying how many are unanswered ('3 вопроса')", async () => {
    const { ue, requests } = setup({}, {}, {}, true);
    expect(await heading(1)).toBeInTheDocument();
    await ue.click(screen.getByRole('button', { name: 'Завершить тест' }));
    const dialog = await screen.findByRole('dialog', { name: 'Завершить тест?' });
    expect(within(dialog).getByText('Вы не ответили на 3 вопроса.')).toBeInTheDocument();
    await ue.click(within(dialog).getByRole('button', { name: 'Завершить тест' }));
    expect(await screen.findByText('Страница результата')).toBeInTheDocument();
    expect(posts(requests, FINISH)).toHaveLength(1);
  });

  it("says '5 вопросов' for five unanswered questions", async () => {
    const five = [1, 2, 3, 4, 5].map((id) => question({ id }));
    const { ue, requests } = setup({}, {}, { questions: five }, true);
    expect(await heading(1)).toBeInTheDocument();
    await ue.click(screen.getByRole('button', { name: 'Завершить тест' }));
    const dialog = await screen.findByRole('dialog', { name: 'Завершить тест?' });
    expect(within(dialog).getByText('Вы не ответили на 5 вопросов.')).toBeInTheDocument();
    await ue.click(within(dialog).getByRole('button', { name: 'Вернуться к вопросам' }));
    expect(posts(requests, FINISH)).toHaveLength(0);
  });

  it("shows 'Сохранение...' on the answer button while the answer saves, not hidden by a loader", async () => {
    let reply: (r: MockReply) => void = () => {};
    const { ue, requests } = setup(
      {},
      {
        'POST /api/test-attempts/save-answers': () =>
          new Promise<MockReply>((resolve) => {
            reply = resolve;
          }),
      },
      {},
      true,
    );
    await ue.click(await screen.findByRole('radio', { name: /Ответ 1\.1/ }));
    await ue.click(screen.getByRole('button', { name: 'Ответить' }));
    const saving = await screen.findByRole('button', { name: 'Сохранение...' });
    // not greyed out as disabled, yet a second click does nothing
    expect(saving).toHaveAttribute('aria-disabled', 'true');
    // Mantine's `loading` hides the label under its loader (data-loading): the text must stay readable.
    expect(saving).not.toHaveAttribute('data-loading');
    expect(screen.getByText('Сохранение...')).toBeVisible();
    await ue.click(saving);
    expect(posts(requests, '/api/test-attempts/save-answers')).toHaveLength(1);
    reply({ status: 200, data: { result: { success: true, message: 'Ответ сохранен' } } });
    expect(await heading(2)).toBeInTheDocument();
  });

  it("toasts 'Ошибка при завершении теста' when a confirmed finish fails", async () => {
    const { ue } = setup({}, { 'POST /api/test-attempts/finish': { status: 500, data: {} } }, {}, true);
    await ue.click(await screen.findByRole('button', { name: 'Завершить тест' }));
    const dialog = await screen.findByRole('dialog', { name: 'Завершить тест?' });
    await ue.click(within(dialog).getByRole('button', { name: 'Завершить тест' }));
    expect(await screen.findByText('Ошибка при завершении теста')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Вопрос №1' })).toBeInTheDocument();
  });
});
