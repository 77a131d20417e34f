import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { Navigate, useLocation } from 'react-router';
import { mockHttp, networkError, testConfig, type MockReply } from '../../test/http';
import { renderRoutes, resetToasts } from '../../test/render';
import RecoveryConfirmPage from './RecoveryConfirmPage';
import { setupUser, type User } from '../../test/user';

let restore: () => void = () => {};
afterEach(() => {
  restore();
  resetToasts();
});

function Probe() {
  const { pathname } = useLocation();
  return <div data-testid="location">{pathname}</div>;
}

const EMAIL = 'ivanov@company.ru';
const ok = (message?: string): MockReply => ({ status: 200, data: { result: { success: true, message } } });
const fail = (status: number, message?: string): MockReply => ({
  status,
  data: { result: { success: false, ...(message === undefined ? {} : { message }) } },
});

type Reply = MockReply | (() => MockReply | Promise<MockReply>);

/** Opens /recovery/confirm the way the request step does: with the address in the navigation state. */
function setup(opts: { check?: Reply; reset?: Reply; state?: unknown } = {}) {
  const mock = mockHttp({
    'GET /api/config': { status: 200, data: testConfig },
    'POST /api/password/check-pin': opts.check ?? ok('Код подтвержден'),
    'POST /api/password/reset-by-pin': opts.reset ?? ok('Новый пароль отправлен на email'),
  });
  restore = mock.restore;
  const state = 'state' in opts ? opts.state : { email: EMAIL };
  const view = renderRoutes(
    [
      { path: '/start', element: <Navigate to="/recovery/confirm" state={state} replace /> },
      { path: '/recovery/confirm', element: <RecoveryConfirmPage /> },
      { path: '*', Component: Probe },
    ],
    '/start',
  );
  const posts = () => mock.requests.filter((r) => r.method === 'POST');
  return { ...view, posts, ue: setupUser() };
}

const boxes = () => screen.getAllByRole('textbox', { name: /^Цифра \d из 6$/ }) as HTMLInputElement[];
const values = () => boxes().map((b) => b.value);
const checkButton = () => screen.getByRole('button', { name: 'Проверить код' });

async function typeCode(ue: User, code: string) {
  await ue.click(boxes()[0]!);
  await ue.keyboard(code);
}

describe('RecoveryConfirmPage', () => {
  it('shows where the code went, six empty boxes, a paste option and the buttons', async () => {
    setup();
    expect(await screen.findByText(`На почту ${EMAIL} отправлен код`)).toBeInTheDocument();
    expect(boxes()).toHaveLength(6);
    expect(values()).toEqual(['', '', '', '', '', '']);
    expect(screen.getByRole('button', { name: 'Вставить' })).toBeInTheDocument();
    expect(checkButton()).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Авторизоваться' })).toBeEnabled();
  });

  it.each([
    ['no state', undefined],
    ['a state without an address', { other: 1 }],
  ])('sends the visitor back to /recovery with %s', async (_case, state) => {
    const { posts } = setup({ state });
    expect(await screen.findByTestId('location')).toHaveTextContent(/^\/recovery$/);
    expect(posts()).toHaveLength(0);
  });

  it('takes one digit per box, moves to the next box, ignores letters', async () => {
    const { ue } = setup();
    await screen.findByText(`На почту ${EMAIL} отправлен код`);
    await ue.click(boxes()[0]!);
    await ue.keyboard('1');
    expect(boxes()[1]).toHaveFocus();
    await ue.keyboard('a');
    expect(values()).toEqual(['1', '', '', '', '', '']);
    expect(boxes()[1]).toHaveFocus();
    await ue.keyboard('2x3');
    expect(values()).toEqual(['1', '2', '3', '', '', '']);
    expect(boxes()[3]).toHaveFocus();
  });

  it('Backspace on an empty box moves focus to the previous box', async () => {
    const { ue } = setup();
    await screen.findByText(`На почту ${EMAIL} отправлен код`);
    await typeCode(ue, '123');
    expect(boxes()[3]).toHaveFocus();
    await ue.keyboard('{Backspace}');
    expect(boxes()[2]).toHaveFocus();
    expect(values()).toEqual(['1', '2', '3', '', '', '']);
    await ue.keyboard('{Backspace}');
    expect(values()).toEqual(['1', '2', '', '', '', '']);
    expect(boxes()[2]).toHaveFocus();
    await ue.keyboard('{Backspace}');
    expect(boxes()[1]).toHaveFocus();
  });

  it('a paste into any box keeps only the digits, at most six, filling the boxes', async () => {
    const { ue } = setup();
    await screen.findByText(`На почту ${EMAIL} отправлен код`);
    await ue.click(boxes()[3]!);
    await ue.paste('Ваш код: 12 34-56, а 789 лишнее');
    expect(values()).toEqual(['1', '2', '3', '4', '5', '6']);
    expect(checkButton()).toBeEnabled();

    await ue.click(boxes()[0]!);
    await ue.paste('9-8');
    expect(values()).toEqual(['9', '8', '', '', '', '']);
    expect(boxes()[2]).toHaveFocus();
    expect(checkButton()).toBeDisabled();

    await ue.paste('без цифр');
    expect(values()).toEqual(['9', '8', '', '', '', '']);
  });

  it('the "Вставить" button reads the clipboard the same way', async () => {
    const { ue } = setup();
    await screen.findByText(`На почту ${EMAIL} отправлен код`);
    await navigator.clipboard.writeText(' 654-321 0 ');
    await ue.click(screen.getByRole('button', { name: 'Вставить' }));
    await waitFor(() => expect(values()).toEqual(['6', '5', '4', '3', '2', '1']));
    expect(checkButton()).toBeEnabled();
  });

  it('"Проверить код" stays disabled until all six digits are there', async () => {
    const { ue, posts } = setup();
    await screen.findByText(`На почту ${EMAIL} отправлен код`);
    await typeCode(ue, '12345');
    expect(checkButton()).toBeDisabled();
    await ue.keyboard('6');
    expect(checkButton()).toBeEnabled();
    await ue.click(boxes()[2]!);
    await ue.keyboard('{Backspace}');
    expect(values()).toEqual(['1', '2', '', '4', '5', '6']);
    expect(checkButton()).toBeDisabled();
    expect(posts()).toHaveLength(0);
  });

  it('checks the code, then resets the password by it, and shows the message with a way back to sign-in', async () => {
    const { ue, posts } = setup();
    await screen.findByText(`На почту ${EMAIL} отправлен код`);
    await typeCode(ue, '482913');
    await ue.click(checkButton());

    expect(await screen.findByText('Новый пароль отправлен на email')).toBeInTheDocument();
    expect(posts().map((r) => r.url)).toEqual(['/api/password/check-pin', '/api/password/reset-by-pin']);
    expect(posts()[0]?.body).toEqual({ email: EMAIL, pin_code: '482913' });
    expect(posts()[1]?.body).toEqual({ email: EMAIL, pin_code: '482913' });
    expect(screen.queryByRole('button', { name: 'Проверить код' })).not.toBeInTheDocument();

    await ue.click(screen.getByRole('button', { name: 'Вернуться ко входу' }));
    expect(await screen.findByTestId('location')).toHaveTextContent(/^\/login$/);
  });

  it("shows the server's success message, or the default one when there is none", async () => {
    const { ue } = setup({ reset: ok() });
    await screen.findByText(`На почту ${EMAIL} отправлен код`);
    await typeCode(ue, '482913');
    await ue.click(checkButton());
    expect(await screen.findByTestId('recovery-success')).toHaveTextContent('Новый пароль отправлен на email');
  });

  it('reads "Проверка..." and is disabled while the code is checked', async () => {
    let answer: (reply: MockReply) => void = () => {};
    const { ue, posts } = setup({ check: () => new Promise<MockReply>((resolve) => (answer = resolve)) });
    await screen.findByText(`На почту ${EMAIL} отправлен код`);
    await typeCode(ue, '482913');
    await ue.click(checkButton());
    const busy = await screen.findByRole('button', { name: 'Проверка...' });
    expect(busy).toBeDisabled();
    await ue.click(busy);
    expect(posts()).toHaveLength(1);
    answer(ok('Код подтвержден'));
    expect(await screen.findByText('Новый пароль отправлен на email')).toBeInTheDocument();
  });

  it('shows the failure message and does not reset when the check fails', async () => {
    const message = 'Неверный или устаревший код. Проверьте код или запросите новый.';
    const { ue, posts } = setup({ check: fail(422, message) });
    await screen.findByText(`На почту ${EMAIL} отправлен код`);
    await typeCode(ue, '111111');
    await ue.click(checkButton());
    expect(await screen.findByRole('alert')).toHaveTextContent(message);
    expect(posts().map((r) => r.url)).toEqual(['/api/password/check-pin']);
    expect(checkButton()).toBeEnabled();
  });

  it('shows a failure of the reset step too (e.g. 429)', async () => {
    const { ue } = setup({ reset: fail(429, 'Слишком много запросов. Попробуйте позже.') });
    await screen.findByText(`На почту ${EMAIL} отправлен код`);
    await typeCode(ue, '111111');
    await ue.click(checkButton());
    expect(await screen.findByRole('alert')).toHaveTextContent('Слишком много запросов. Попробуйте позже.');
  });

  it.each([
    ['an answer without a message', () => fail(422)],
    ['no answer at all', () => networkError()],
  ])('falls back to "Ошибка проверки кода" on %s', async (_case, check) => {
    const { ue } = setup({ check });
    await screen.findByText(`На почту ${EMAIL} отправлен код`);
    await typeCode(ue, '111111');
    await ue.click(checkButton());
    expect(await screen.findByRole('alert')).toHaveTextContent('Ошибка проверки кода');
  });

  it('renders the failure message as sanitized HTML', async () => {
    const { ue } = setup({
      check: fail(422, '<b>Код</b> неверен<img src=x onerror=alert(1)><script>alert(2)</script>'),
    });
    await screen.findByText(`На почту ${EMAIL} отправлен код`);
    await typeCode(ue, '111111');
    await ue.click(checkButton());
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('Код').tagName).toBe('B');
    expect(alert).toHaveTextContent('Код неверен');
    const img = alert.querySelector('img');
    expect(img).not.toBeNull();
    expect(img?.hasAttribute('onerror')).toBe(false);
    expect(alert.innerHTML).not.toContain('onerror');
    expect(alert.querySelector('script')).toBeNull();
  });

  it('"Авторизоваться" returns to /login', async () => {
    const { ue, posts } = setup();
    await ue.click(await screen.findByRole('button', { name: 'Авторизоваться' }));
    expect(await screen.findByTestId('location')).toHaveTextContent(/^\/login$/);
    expect(posts()).toHaveLength(0);
  });
});
