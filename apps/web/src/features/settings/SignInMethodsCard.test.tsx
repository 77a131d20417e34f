import { SIGN_IN_SETTINGS_MESSAGES, type SignInSettings } from '@lms/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { networkError, type MockReply, type RecordedRequest } from '../../test/http';
import { NO_SSO, settingsAnswer, signInSetup, WITH_SSO } from './signInTesting';
import { ok } from './testing';

const setup = signInSetup();

const card = () => screen.findByRole('region', { name: 'Способы входа' });
// the label wraps the description too: the name starts with the label
const ssoSwitch = () => screen.findByRole('switch', { name: /^Только вход через SSO/ });
const methods = () =>
  screen.getAllByTestId('sign-in-method').map((li) => ({
    name: li.querySelector('p')?.textContent,
    state: within(li).getByText(/^(Не )?[Нн]астроен$/).textContent,
  }));

/** The server's PUT: saved as sent, with its message. */
const saved =
  (settings: SignInSettings, message = 'Вход только через SSO включён') =>
  (request: RecordedRequest): MockReply =>
    ok({ result: { success: true, message }, data: { ...settings, ...(request.body as object) } });

describe('Settings, sign-in tab: the ways in and "Только вход через SSO"', { timeout: 20_000 }, () => {
  it('shows skeletons while the settings load, then what the server is set up for', async () => {
    let answer: (reply: MockReply) => void = () => {};
    setup({ settings: () => new Promise<MockReply>((resolve) => (answer = resolve)) });
    const region = await card();
    expect(within(region).getByTestId('sign-in-settings-loading')).toBeInTheDocument();
    answer(settingsAnswer({ sso_only: false, ldap_auth: false, oidc: true }));
    expect(await ssoSwitch()).not.toBeChecked();
    expect(methods()).toEqual([
      { name: 'Пароль платформы', state: 'Настроен' },
      { name: 'Пароль Active Directory', state: 'Не настроен' },
      { name: 'Корпоративный аккаунт (OpenID Connect)', state: 'Настроен' },
    ]);
    // where each is set: the server's environment
    expect(within(region).getByText(/переменной LDAP_AUTH/)).toBeInTheDocument();
    expect(within(region).getByText(/OIDC_ISSUER/)).toBeInTheDocument();
    expect(await ssoSwitch()).toBeEnabled();
    expect(screen.queryByText(SIGN_IN_SETTINGS_MESSAGES.noSso)).not.toBeInTheDocument();
  });

  it('explains the switch: who loses the password and who keeps it', async () => {
    setup({ settings: settingsAnswer(WITH_SSO) });
    const toggle = await ssoSwitch();
    expect(toggle).toHaveAccessibleDescription(/импортированные из файла, синхронизированные с каталогом/);
    expect(toggle).toHaveAccessibleDescription(/созданные вручную во вкладке «Сотрудники», сохранят свой пароль/);
  });

  it('is disabled, with the reason, when neither Active Directory nor OpenID Connect is set up', async () => {
    const { ue, saves } = setup({ settings: settingsAnswer(NO_SSO) });
    const toggle = await ssoSwitch();
    expect(toggle).toBeDisabled();
    expect(toggle).toHaveAccessibleDescription(new RegExp(SIGN_IN_SETTINGS_MESSAGES.noSso.replace(/[()*]/g, '\\$&')));
    expect(methods().map((m) => m.state)).toEqual(['Настроен', 'Не настроен', 'Не настроен']);
    await ue.click(toggle);
    expect(saves()).toHaveLength(0);
  });

  it('saves at once on a click, with the server message, and keeps the new value', async () => {
    const { ue, saves } = setup({ settings: settingsAnswer(WITH_SSO), save: saved(WITH_SSO) });
    const toggle = await ssoSwitch();
    expect(toggle).not.toBeChecked();
    await ue.click(toggle);
    expect(await screen.findByText('Вход только через SSO включён')).toBeInTheDocument();
    expect(saves().map((r) => r.body)).toEqual([{ sso_only: true }]);
    expect(toggle).toBeChecked();
    // the password is now for accounts made by hand only
    expect(
      screen.getByText('Только для учётных записей, созданных вручную во вкладке «Сотрудники».'),
    ).toBeInTheDocument();
  });

  it('says "Настройки входа сохранены" when the server says nothing', async () => {
    const { ue } = setup({
      settings: settingsAnswer({ ...WITH_SSO, sso_only: true }),
      save: (request) => ok({ result: { success: true }, data: { ...WITH_SSO, ...(request.body as object) } }),
    });
    const toggle = await ssoSwitch();
    expect(toggle).toBeChecked();
    await ue.click(toggle);
    expect(await screen.findByText('Настройки входа сохранены')).toBeInTheDocument();
    expect(toggle).not.toBeChecked();
  });

  it.each<[string, MockReply | (() => never), string]>([
    [
      'the server message of a 422',
      { status: 422, data: { result: { success: false, message: SIGN_IN_SETTINGS_MESSAGES.noSso } } },
      SIGN_IN_SETTINGS_MESSAGES.noSso,
    ],
    [
      '"Не удалось сохранить настройку входа" with no answer',
      () => networkError(),
      'Не удалось сохранить настройку входа',
    ],
  ])('a refusal shows %s and puts the switch back', async (_, reply, text) => {
    let answer: () => void = () => {};
    const { ue } = setup({
      settings: settingsAnswer(WITH_SSO),
      // held until the switch is seen flipped, so the rollback is seen too
      save: () =>
        new Promise<MockReply>((resolve, reject) => {
          answer = () => {
            try {
              resolve(typeof reply === 'function' ? reply() : reply);
            } catch (error) {
              reject(error instanceof Error ? error : new Error(String(error)));
            }
          };
        }),
    });
    const toggle = await ssoSwitch();
    await ue.click(toggle);
    expect(toggle).toBeChecked();
    answer();
    const toasts = await screen.findAllByText(text);
    expect(toasts.some((t) => t.closest('.mantine-Notification-root'))).toBe(true);
    await waitFor(() => expect(toggle).not.toBeChecked());
  });

  it('stays on and can be turned off when SSO was set up and is no longer, with a warning', async () => {
    const { ue, saves } = setup({
      settings: settingsAnswer({ ...NO_SSO, sso_only: true }),
      save: saved(NO_SSO, 'Вход только через SSO выключен'),
    });
    const toggle = await ssoSwitch();
    expect(toggle).toBeChecked();
    expect(toggle).toBeEnabled();
    expect(screen.getByText(/Вход через SSO на сервере больше не настроен/)).toBeInTheDocument();
    await ue.click(toggle);
    expect(await screen.findByText('Вход только через SSO выключен')).toBeInTheDocument();
    expect(saves().map((r) => r.body)).toEqual([{ sso_only: false }]);
    expect(toggle).not.toBeChecked();
    expect(toggle).toBeDisabled();
    expect(screen.queryByText(/Вход через SSO на сервере больше не настроен/)).not.toBeInTheDocument();
  });

  it('shows the load error in the card with a retry that asks again', async () => {
    let fail = true;
    const { ue, requests } = setup({
      settings: () => (fail ? { status: 500, data: { result: { success: false } } } : settingsAnswer(WITH_SSO)),
    });
    const region = await card();
    const retry = await within(region).findByRole('button', { name: 'Повторить' });
    expect(within(region).getByText('Ошибка при загрузке данных')).toBeInTheDocument();
    fail = false;
    await ue.click(retry);
    expect(await ssoSwitch()).toBeEnabled();
    expect(requests.filter((r) => r.url === '/api/admin/sign-in-settings')).toHaveLength(2);
    // the journal beside it loaded all along
    expect(screen.getAllByTestId('sign-in-row')).toHaveLength(4);
  });
});
