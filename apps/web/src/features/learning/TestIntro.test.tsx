import { screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resetToasts } from '../../test/render';
import { attemptView } from './fixtures';
import { dateAndTime } from './testLogic';
import { restoreHttp, setup } from './testPageSetup';

beforeEach(() => localStorage.clear());
afterEach(() => {
  restoreHttp();
  resetToasts();
});

const failed = attemptView({ id: 60, attempt_number: 1, score: 40, is_passed: false, passing_score: 60 });
const passed = attemptView({
  id: 61,
  attempt_number: 2,
  score: 90,
  is_passed: true,
  passing_score: 80,
  finished_at: '2026-03-05T09:15:00.000Z',
});

/** Issue 30 items 2 and 6: a passed test reads as passed; each attempt shows its own pass mark. */
describe('test introduction after attempts (issue 30)', { timeout: 20_000 }, () => {
  it('shows the pass (result, date), not the block, when no attempt is left', async () => {
    setup({
      is_blocked: true,
      blocked_until: null,
      passing_score: 90,
      attempts: [failed, passed],
      last_attempt: passed,
      passed_attempt: passed,
    });
    const notice = await screen.findByTestId('test-passed');
    expect(within(notice).getByText('Тест пройден')).toBeInTheDocument();
    expect(within(notice).getByText('Результат: 90%')).toBeInTheDocument();
    const { date, time } = dateAndTime('2026-03-05T09:15:00.000Z');
    expect(within(notice).getByText(`Тест сдан ${date} в ${time}`)).toBeInTheDocument();
    expect(screen.queryByTestId('test-blocked')).not.toBeInTheDocument();
    expect(screen.queryByText('Тест заблокирован')).not.toBeInTheDocument();
    expect(screen.queryByText('навсегда')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Начать тест' })).not.toBeInTheDocument();
  });

  it('offers another attempt after a pass while attempts are left', async () => {
    setup({ attempts: [passed], last_attempt: passed, passed_attempt: passed });
    expect(await screen.findByTestId('test-passed')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Начать тест' })).toBeEnabled();
  });

  it('still says blocked when the learner has not passed', async () => {
    setup({ is_blocked: true, blocked_until: null, attempts: [failed], last_attempt: failed });
    expect(await screen.findByTestId('test-blocked')).toHaveTextContent('навсегда');
    expect(screen.queryByTestId('test-passed')).not.toBeInTheDocument();
  });

  it('shows in the history the pass mark each attempt was graded against', async () => {
    setup({ passing_score: 90, attempts: [failed, passed], last_attempt: passed });
    const rows = within(await screen.findByTestId('attempt-history')).getAllByRole('row');
    // header, attempt 1, attempt 2: the last cell is the pass mark
    expect(rows.slice(1).map((r) => within(r).getAllByRole('cell').at(-1)?.textContent)).toEqual(['60%', '80%']);
  });
});
