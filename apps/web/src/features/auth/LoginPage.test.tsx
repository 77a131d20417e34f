import { cleanup, screen, waitFor } from '@testing-library/react';
import type { AuthUser } from '@lms/contract';
import { afterEach, describe, expect, it } from 'vitest';
import { mockHttp, networkError, testConfig, testZiggy, type MockReply } from '../../test/http';
import { renderAt, resetToasts } from '../../test/render';
import LoginPage from './LoginPage';
import { sessionQueryKey, ziggyQueryKey } from '../../shared/queryKeys';
import { setupUser, type User } from '../../test/user';

const user: AuthUser = {
  authenticated: true,
  id: 7,
  name: 'Иванов Иван Иванович',
  first_name: 'Иван',
  last_name: 'Иванов',
  must_change_password: false,
  email: 'ivanov@company.ru',
  role: 'learner',
  roles_ru: 'Ученик',
  permissions: ['learning', 'profile'],
};

const okLogin: MockReply = {
  status: 200,
  data: { result: { success: true, message: 'Вы успешно авторизованы' }, user },
};

let restore: () => void = () => {};
afterEach(() => {
  restore();
  resetToasts();
});

function setup(
  loginReply: MockReply | (() => MockReply | Promise<MockReply>) = okLogin,
  ziggy = testZiggy,
  opts: { config?: typeof testConfig; path?: string } = {},
) {
  const mock = mockHttp({
    'GET /api/config': { status: 200, data: opts.config ?? testConfig },
    'GET /ziggy': { status: 200, data: ziggy },
    [`POST /${ziggy.routes.login.uri}`]: loginReply,
  });
  restore = mock.restore;
  const view = renderAt(<LoginPage />, opts.path ?? '/login', '/login');
  const posts = () => mock.requests.filter((r) => r.method === 'POST');
  return { ...view, posts, ue: setupUser() };
}

async function fill(ue: User, mailbox: string, password: string) {
  if (mailbox) await ue.type(await screen.findByLabelText('Почта'), mailbox);
  if (password) await ue.type(screen.getByLabelText('Пароль'), password);
}

describe('LoginPage', () => {
  it('shows the form: domain suffix from the config, remember-me on, recovery link, submit button', async () => {
    setup();
    expect(await screen.findByText('@company.ru')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'ООО «Ромашка»' })).toBeInTheDocument();
    expect(screen.getByLabelText('Запомнить меня')).toBeChecked();
    expect(screen.getByRole('link', { name: 'Забыли пароль?' })).toHaveAttribute('href', '/recovery');
    expect(screen.getByRole('button', { name: 'Авторизоваться' })).toBeInTheDocument();
  });

  it('toggles the password visibility', async () => {
    const { ue } = setup();
    const password = await screen.findByLabelText('Пароль');
    expect(password).toHaveAttribute('type', 'password');
    await ue.click(screen.getByRole('button', { name: 'Показать пароль' }));
    expect(password).toHaveAttribute('type', 'text');
    expect(screen.getByRole('button', { name: 'Скрыть пароль' })).toBeInTheDocument();
  });

  it.each([
    ['a mailbox part of one character', 'i', 'secret'],
    ['a password of one character', 'ivanov', 's'],
    ['only the suffix typed', '@company.ru', 'secret'],
    ['empty fields', '', ''],
  ])('refuses %s with "Заполните почту и пароль" and makes no call', async (_case, mailbox, password) => {
    const { ue, posts } = setup();
    await screen.findByLabelText('Почта');
    await fill(ue, mailbox, password);
    await ue.click(screen.getByRole('button', { name: 'Авторизоваться' }));
    expect(await screen.findByText('Заполните почту и пароль')).toBeInTheDocument();
    expect(posts()).toHaveLength(0);
  });

  it('sends the mailbox part plus the suffix, shows the success toast, stores the user and goes to /', async () => {
    const { ue, posts, queryClient } = setup();
    await fill(ue, 'ivanov', 'secret');
    await ue.click(screen.getByRole('button', { name: 'Авторизоваться' }));

    expect(await screen.findByTestId('location')).toHaveTextContent(/^\/$/);
    expect(posts()).toHaveLength(1);
    expect(posts()[0]?.url).toBe('/login');
    expect(posts()[0]?.body).toEqual({ login: 'ivanov@company.ru', password: 'secret', remember: true });
    expect(await screen.findByText('Вы успешно авторизованы')).toBeInTheDocument();
    expect(queryClient.getQueryData(sessionQueryKey)).toMatchObject({ authenticated: true, name: user.name });
  });

  it('strips the suffix when the user typed it, and sends remember=false when unticked', async () => {
    const { ue, posts } = setup();
    await fill(ue, 'ivanov@company.ru', 'secret');
    await ue.click(screen.getByLabelText('Запомнить меня'));
    await ue.click(screen.getByRole('button', { name: 'Авторизоваться' }));
    await waitFor(() => expect(posts()).toHaveLength(1));
    expect(posts()[0]?.body).toEqual({ login: 'ivanov@company.ru', password: 'secret', remember: false });
  });

  it('posts to the sign-in route of the route table', async () => {
    const ziggy = {
      ...testZiggy,
      routes: { ...testZiggy.routes, login: { uri: 'auth/sign-in', methods: ['POST'] } },
    };
    const { ue, posts, queryClient } = setup(okLogin, ziggy);
    await waitFor(() => expect(queryClient.getQueryData(ziggyQueryKey)).toBeTruthy());
    await fill(ue, 'ivanov', 'secret');
    await ue.click(screen.getByRole('button', { name: 'Авторизоваться' }));
    await waitFor(() => expect(posts()).toHaveLength(1));
    expect(posts()[0]?.url).toBe('/auth/sign-in');
  });

  it('shows "Неверный логин или пароль" on a failed sign-in and stays on the page', async () => {
    const { ue } = setup({
      status: 422,
      data: { result: { success: false, message: 'Неверный логин или пароль' } },
    });
    await fill(ue, 'ivanov', 'wrong');
    await ue.click(screen.getByRole('button', { name: 'Авторизоваться' }));
    expect(await screen.findByText('Неверный логин или пароль')).toBeInTheDocument();
    expect(screen.queryByTestId('location')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Авторизоваться' })).toBeEnabled();
  });

  it("shows the server's message on 429", async () => {
    const message = 'Слишком много попыток входа. Попробуйте через минуту.';
    const { ue } = setup({ status: 429, data: { result: { success: false, message } } });
    await fill(ue, 'ivanov', 'secret');
    await ue.click(screen.getByRole('button', { name: 'Авторизоваться' }));
    expect(await screen.findByText(message)).toBeInTheDocument();
  });

  it('shows a network error when no answer comes back', async () => {
    const { ue } = setup(() => networkError());
    await fill(ue, 'ivanov', 'secret');
    await ue.click(screen.getByRole('button', { name: 'Авторизоваться' }));
    expect(await screen.findByText('Ошибка сети. Попробуйте позже.')).toBeInTheDocument();
  });

  it('shows a loading button while the call runs', async () => {
    let answer: (reply: MockReply) => void = () => {};
    const { ue, posts } = setup(() => new Promise<MockReply>((resolve) => (answer = resolve)));
    await fill(ue, 'ivanov', 'secret');
    const button = screen.getByRole('button', { name: 'Авторизоваться' });
    await ue.click(button);
    await waitFor(() => expect(button).toHaveAttribute('data-loading', 'true'));
    expect(button).toBeDisabled();
    await ue.click(button);
    expect(posts()).toHaveLength(1);
    answer(okLogin);
    expect(await screen.findByTestId('location')).toHaveTextContent(/^\/$/);
  });

  it('without OpenID Connect configured there is no corporate button', async () => {
    setup();
    await screen.findByRole('button', { name: 'Авторизоваться' });
    expect(screen.queryByText('или')).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: /корпоративный/ })).not.toBeInTheDocument();
  });

  it('shows the corporate button with its configured label, leading to the start of the corporate sign-in', async () => {
    setup(okLogin, testZiggy, { config: { ...testConfig, oidc_label: 'Войти через корпоративный аккаунт' } });
    const corporate = await screen.findByRole('link', { name: 'Войти через корпоративный аккаунт' });
    expect(corporate).toHaveAttribute('href', '/api/auth/oidc/start?remember=1');
  });

  it('a refused corporate sign-in shows its Russian message; an unknown code the general one', async () => {
    setup(okLogin, testZiggy, { path: '/login?sso_error=email_unverified' });
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Адрес почты в корпоративном аккаунте не подтверждён, войти с ним нельзя.',
    );
    cleanup();
    restore();
    setup(okLogin, testZiggy, { path: '/login?sso_error=<b>Позвоните нам</b>' });
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Не удалось войти через корпоративный аккаунт. Попробуйте позже.',
    );
  });
});
