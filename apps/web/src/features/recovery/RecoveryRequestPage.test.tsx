import { screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { useLocation } from 'react-router';
import { mockHttp, networkError, testConfig, type MockReply } from '../../test/http';
import { renderRoutes, resetToasts } from '../../test/render';
import RecoveryRequestPage from './RecoveryRequestPage';
import { setupUser, type User } from '../../test/user';

let restore: () => void = () => {};
afterEach(() => {
  restore();
  resetToasts();
});

/** Shows where the page went and with which navigation state. */
function Probe() {
  const location = useLocation();
  return (
    <div data-testid="location" data-state={JSON.stringify(location.state ?? null)}>
      {location.pathname}
    </div>
  );
}

const accepted: MockReply = {
  status: 200,
  data: { result: { success: true, message: 'Если адрес зарегистрирован, на него отправлен код' } },
};

function setup(reply: MockReply | (() => MockReply | Promise<MockReply>) = accepted) {
  const mock = mockHttp({
    'GET /api/config': { status: 200, data: testConfig },
    'POST /api/password/recovery-request': reply,
  });
  restore = mock.restore;
  const view = renderRoutes(
    [
      { path: '/recovery', element: <RecoveryRequestPage /> },
      { path: '*', Component: Probe },
    ],
    '/recovery',
  );
  const posts = () => mock.requests.filter((r) => r.method === 'POST');
  return { ...view, posts, ue: setupUser() };
}

async function send(ue: User, typed: string) {
  await ue.type(await screen.findByLabelText('Почта'), typed);
  await ue.click(screen.getByRole('button', { name: 'Отправить письмо' }));
}

function landedWith(email: string) {
  const probe = screen.getByTestId('location');
  expect(probe).toHaveTextContent(/^\/recovery\/confirm$/);
  expect(JSON.parse(probe.getAttribute('data-state') ?? 'null')).toEqual({ email });
}

describe('RecoveryRequestPage', () => {
  it('shows the mailbox field with the domain suffix and both buttons', async () => {
    setup();
    expect(await screen.findByText('@company.ru')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Восстановление пароля' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Отправить письмо' })).toBeEnabled();
    expect(screen.getByRole('button', { name: 'Вернуться назад' })).toBeEnabled();
  });

  it('appends the suffix to the mailbox part and moves on to the code step with the address', async () => {
    const { ue, posts } = setup();
    await send(ue, 'ivanov');
    await screen.findByTestId('location');
    expect(posts()).toHaveLength(1);
    expect(posts()[0]?.url).toBe('/api/password/recovery-request');
    expect(posts()[0]?.body).toEqual({ email: 'ivanov@company.ru' });
    landedWith('ivanov@company.ru');
  });

  it('uses a typed address with "@" as it stands (and hides the suffix)', async () => {
    const { ue, posts } = setup();
    await ue.type(await screen.findByLabelText('Почта'), 'ivanov@other.org');
    expect(screen.queryByText('@company.ru')).not.toBeInTheDocument();
    await ue.click(screen.getByRole('button', { name: 'Отправить письмо' }));
    await screen.findByTestId('location');
    expect(posts()[0]?.body).toEqual({ email: 'ivanov@other.org' });
    landedWith('ivanov@other.org');
  });

  it('reads "Отправка..." and is disabled while the call runs; a second click sends nothing', async () => {
    let answer: (reply: MockReply) => void = () => {};
    const { ue, posts } = setup(() => new Promise<MockReply>((resolve) => (answer = resolve)));
    await send(ue, 'ivanov');
    const busy = await screen.findByRole('button', { name: 'Отправка...' });
    expect(busy).toBeDisabled();
    expect(screen.queryByRole('button', { name: 'Отправить письмо' })).not.toBeInTheDocument();
    await ue.click(busy);
    expect(posts()).toHaveLength(1);
    answer(accepted);
    await screen.findByTestId('location');
    landedWith('ivanov@company.ru');
  });

  it.each([
    ['422 (validation)', { status: 422, data: { result: { success: false, message: 'Некорректный адрес' } } }],
    ['429 (too often)', { status: 429, data: { result: { success: false, message: 'Код уже отправлен.' } } }],
    ['500', { status: 500, data: { result: { success: false, message: 'Внутренняя ошибка' } } }],
  ])('ignores a %s answer and still moves on to the code step', async (_case, reply) => {
    const { ue } = setup(reply);
    await send(ue, 'ivanov');
    await screen.findByTestId('location');
    landedWith('ivanov@company.ru');
    expect(screen.queryByText('Ошибка сети. Попробуйте позже.')).not.toBeInTheDocument();
  });

  it('shows "Ошибка сети. Попробуйте позже." and stays when no answer comes back', async () => {
    const { ue } = setup(() => networkError());
    await send(ue, 'ivanov');
    expect(await screen.findByText('Ошибка сети. Попробуйте позже.')).toBeInTheDocument();
    expect(screen.queryByTestId('location')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Отправить письмо' })).toBeEnabled();
  });

  it('asks for the mailbox when the field is empty and makes no call', async () => {
    const { ue, posts } = setup();
    await screen.findByLabelText('Почта');
    await ue.click(screen.getByRole('button', { name: 'Отправить письмо' }));
    expect(await screen.findByText('Введите почту')).toBeInTheDocument();
    expect(posts()).toHaveLength(0);
  });

  it('"Вернуться назад" goes to /login', async () => {
    const { ue, posts } = setup();
    await ue.click(await screen.findByRole('button', { name: 'Вернуться назад' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/login$/));
    expect(posts()).toHaveLength(0);
  });
});
