import type { Profile } from '@lms/contract';
import { fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { mockHttp, networkError, type MockReply, type RecordedRequest } from '../../test/http';
import { renderAt, resetToasts } from '../../test/render';
import { setupUser } from '../../test/user';
import { SUBMIT_GREEN } from './profile';
import ProfilePage from './ProfilePage';

let restore: () => void = () => {};
afterEach(() => {
  restore();
  resetToasts();
});

const learner: Profile = {
  id: 3,
  first_name: 'Алексей',
  last_name: 'Смирнов',
  role: { name: 'Ученик' },
  department: { name: 'Отдел продаж' },
  position: 'Менеджер по продажам',
  email: 'learner@company.ru',
  reminder_mails: true,
  digest_mails: null,
};

const profileReply = (profile: Profile): MockReply => ({
  status: 200,
  data: { result: { success: true }, data: profile },
});

type Reply = MockReply | (() => MockReply | Promise<MockReply>);

function setup(opts: { profile?: Reply; change?: Reply; preferences?: Reply } = {}) {
  const mock = mockHttp({
    'GET /api/profile': opts.profile ?? profileReply(learner),
    // 'Мои сертификаты' has tests of its own (MyCertificates.test.tsx)
    'GET /api/my/certificates': { status: 200, data: { result: { success: true, items: [] } } },
    'PUT /api/profile/preferences':
      opts.preferences ??
      ((request) => ({
        status: 200,
        data: {
          result: { success: true, message: 'Настройки сохранены' },
          data: { digest_mails: null, ...(request.body as object) },
        },
      })),
    'POST /api/profile/change-password': opts.change ?? {
      status: 200,
      data: { result: { success: true, message: 'Пароль успешно изменён' } },
    },
  });
  restore = mock.restore;
  return { ...renderAt(<ProfilePage />, '/profile'), requests: mock.requests, ue: setupUser() };
}

const field = (label: string) => screen.getByLabelText(label, { selector: 'input' });
const submit = () => screen.getByRole('button', { name: /^(Сменить пароль|Сохранение\.\.\.)$/ });
const changeCalls = (requests: { method: string; url: string }[]) =>
  requests.filter((r) => r.method === 'POST' && r.url === '/api/profile/change-password');

async function fill(ue: ReturnType<typeof setupUser>, values: [string, string, string]) {
  const labels = ['Старый пароль', 'Новый пароль', 'Подтверждение пароля'];
  for (const [i, label] of labels.entries()) {
    const value = values[i] ?? '';
    if (value !== '') await ue.type(field(label), value);
  }
}

/** The `dd` that follows the `dt` with the given label. */
function infoValue(label: string): string | null {
  const term = screen.getByText(label, { selector: 'dt' });
  return term.nextElementSibling?.textContent ?? null;
}

describe('profile page', { timeout: 20_000 }, () => {
  it('shows "Загрузка..." while the profile loads, then the read-only card', async () => {
    let answer: (reply: MockReply) => void = () => {};
    setup({ profile: () => new Promise<MockReply>((resolve) => (answer = resolve)) });
    expect(await screen.findByText('Загрузка...')).toBeInTheDocument();
    answer(profileReply(learner));

    expect(await screen.findByRole('heading', { level: 2, name: 'Алексей Смирнов' })).toBeInTheDocument();
    expect(screen.queryByText('Загрузка...')).not.toBeInTheDocument();
    expect(screen.getByTestId('profile-role')).toHaveTextContent('Ученик');
    expect(infoValue('Имя Фамилия')).toBe('Алексей Смирнов');
    expect(infoValue('Отдел')).toBe('Отдел продаж');
    expect(infoValue('Должность')).toBe('Менеджер по продажам');
    expect(infoValue('Email')).toBe('learner@company.ru');
  });

  it('shows the defaults for a missing role, department and position', async () => {
    setup({ profile: profileReply({ ...learner, role: null, department: null, position: null }) });
    await screen.findByRole('heading', { level: 2, name: 'Алексей Смирнов' });
    expect(screen.getByTestId('profile-role')).toHaveTextContent(/^Пользователь$/);
    expect(infoValue('Отдел')).toBe('Не указан');
    expect(infoValue('Должность')).toBe('Не указана');
  });

  it('treats blank names as missing', async () => {
    setup({ profile: profileReply({ ...learner, role: { name: ' ' }, department: { name: '' }, position: '  ' }) });
    await screen.findByRole('heading', { level: 2, name: 'Алексей Смирнов' });
    expect(screen.getByTestId('profile-role')).toHaveTextContent(/^Пользователь$/);
    expect(infoValue('Отдел')).toBe('Не указан');
    expect(infoValue('Должность')).toBe('Не указана');
  });

  it.each<[string, Reply]>([
    ['a server error', { status: 500, data: { result: { success: false, message: 'Ошибка' } } }],
    ['success false', { status: 200, data: { result: { success: false } } }],
    ['an answer without data', { status: 200, data: { result: { success: true } } }],
    ['no answer at all', () => networkError()],
  ])('shows "Не удалось загрузить профиль" on %s and loads again on retry', async (_, reply) => {
    let calls = 0;
    setup({
      profile: async () => {
        calls += 1;
        if (calls === 1) return typeof reply === 'function' ? reply() : reply;
        return profileReply(learner);
      },
    });
    expect(await screen.findByText('Не удалось загрузить профиль')).toBeInTheDocument();
    // The password form does not need the profile.
    expect(submit()).toBeEnabled();
    await setupUser().click(screen.getByRole('button', { name: 'Повторить' }));
    expect(await screen.findByRole('heading', { level: 2, name: 'Алексей Смирнов' })).toBeInTheDocument();
  });
});

describe('password change', { timeout: 20_000 }, () => {
  it('has the three password fields and the green submit button', async () => {
    setup();
    const card = await screen.findByRole('region', { name: 'Смена пароля' });
    for (const label of ['Старый пароль', 'Новый пароль', 'Подтверждение пароля']) {
      expect(within(card).getByLabelText(label, { selector: 'input' })).toHaveAttribute('type', 'password');
    }
    const button = within(card).getByRole('button', { name: 'Сменить пароль' });
    expect(button).toHaveAttribute('type', 'submit');
    expect(button.style.getPropertyValue('--button-bg')).toBe(SUBMIT_GREEN);
  });

  it.each<[string, [string, string, string]]>([
    ['nothing', ['', '', '']],
    ['the old password only', ['старый-пароль', '', '']],
    ['no confirmation', ['старый-пароль', 'Новый-2026!', '']],
    ['no old password', ['', 'Новый-2026!', 'Новый-2026!']],
  ])('with %s filled says "Заполните все поля пароля" and sends nothing', async (_, values) => {
    const { ue, requests } = setup();
    await screen.findByRole('heading', { level: 2, name: 'Алексей Смирнов' });
    await fill(ue, values);
    await ue.click(submit());
    expect(await screen.findByText('Заполните все поля пароля')).toBeInTheDocument();
    expect(changeCalls(requests)).toHaveLength(0);
    const labels = ['Старый пароль', 'Новый пароль', 'Подтверждение пароля'];
    for (const [i, label] of labels.entries()) {
      if (values[i] === '') expect(field(label)).toHaveAttribute('aria-invalid', 'true');
      else expect(field(label)).not.toHaveAttribute('aria-invalid', 'true');
    }
  });

  it('says "Подтверждение пароля не совпадает" when the confirmation differs, and sends nothing', async () => {
    const { ue, requests } = setup();
    await fill(ue, ['старый-пароль', 'Новый-2026!', 'Новый-2026?']);
    await ue.click(submit());
    expect(await screen.findByText('Подтверждение пароля не совпадает')).toBeInTheDocument();
    expect(changeCalls(requests)).toHaveLength(0);
    expect(field('Подтверждение пароля')).toHaveAttribute('aria-invalid', 'true');
    // Fixing the field takes the mark away.
    await ue.type(field('Подтверждение пароля'), '{Backspace}!');
    expect(field('Подтверждение пароля')).not.toHaveAttribute('aria-invalid', 'true');
  });

  it('sends the three fields, shows "Сохранение..." while saving, then the success toast, and clears the fields', async () => {
    let answer: (reply: MockReply) => void = () => {};
    const { ue, requests } = setup({ change: () => new Promise<MockReply>((resolve) => (answer = resolve)) });
    await fill(ue, ['Demo-2026!', 'Новый-пароль-1', 'Новый-пароль-1']);
    await ue.click(submit());

    const saving = await screen.findByRole('button', { name: 'Сохранение...' });
    expect(saving).toBeDisabled();
    expect(changeCalls(requests)).toEqual([
      expect.objectContaining({
        body: {
          old_password: 'Demo-2026!',
          new_password: 'Новый-пароль-1',
          new_password_confirmation: 'Новый-пароль-1',
        },
      }),
    ]);
    // A second submit while saving sends nothing more.
    await ue.type(field('Подтверждение пароля'), '{Enter}');
    expect(changeCalls(requests)).toHaveLength(1);

    answer({ status: 200, data: { result: { success: true, message: 'Пароль успешно изменён' } } });
    expect(await screen.findByText('Пароль успешно изменён')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Сменить пароль' })).toBeEnabled();
    for (const label of ['Старый пароль', 'Новый пароль', 'Подтверждение пароля']) {
      expect(field(label)).toHaveValue('');
    }
  });

  it.each<[string, Reply, string]>([
    [
      'the server message of a 422',
      { status: 422, data: { result: { success: false, message: 'Неверный текущий пароль' } } },
      'Неверный текущий пароль',
    ],
    [
      'the server message of a 429',
      { status: 429, data: { result: { success: false, message: 'Слишком много попыток. Попробуйте через минуту.' } } },
      'Слишком много попыток. Попробуйте через минуту.',
    ],
    [
      'the message of success false',
      { status: 200, data: { result: { success: false, message: 'Пароль не должен совпадать с логином' } } },
      'Пароль не должен совпадать с логином',
    ],
    ['"Ошибка при смене пароля" without a message', { status: 500, data: 'Internal' }, 'Ошибка при смене пароля'],
    ['"Ошибка при смене пароля" with no answer', () => networkError(), 'Ошибка при смене пароля'],
  ])('a failure shows %s and keeps the fields', async (_, reply, text) => {
    const { ue, requests } = setup({ change: reply });
    await fill(ue, ['неверный', 'Новый-пароль-1', 'Новый-пароль-1']);
    await ue.click(submit());
    expect(await screen.findByText(text)).toBeInTheDocument();
    expect(changeCalls(requests)).toHaveLength(1);
    expect(screen.queryByText('Пароль успешно изменён')).not.toBeInTheDocument();
    expect(field('Старый пароль')).toHaveValue('неверный');
    expect(field('Новый пароль')).toHaveValue('Новый-пароль-1');
    expect(screen.getByRole('button', { name: 'Сменить пароль' })).toBeEnabled();
  });

  it('shows and hides a password with a named toggle', async () => {
    const { ue } = setup();
    await ue.type(field('Новый пароль'), 'секрет');
    const card = screen.getByRole('region', { name: 'Смена пароля' });
    const toggles = within(card).getAllByRole('button', { name: 'Показать пароль', hidden: true });
    expect(toggles).toHaveLength(3);
    await ue.click(toggles[1] as HTMLElement);
    expect(field('Новый пароль')).toHaveAttribute('type', 'text');
    expect(field('Старый пароль')).toHaveAttribute('type', 'password');
  });
});

describe('reminder mails switch', { timeout: 20_000 }, () => {
  const reminderSwitch = () => screen.findByRole('switch', { name: /^Напоминания о сроках по почте/ });
  const preferenceCalls = (requests: RecordedRequest[]) =>
    requests.filter((r) => r.method === 'PUT' && r.url === '/api/profile/preferences');

  it('shows the saved preference with its description in the card "Уведомления"', async () => {
    setup({ profile: profileReply({ ...learner, reminder_mails: false }) });
    const card = await screen.findByRole('region', { name: 'Уведомления' });
    const toggle = await reminderSwitch();
    expect(card).toContainElement(toggle);
    expect(toggle).not.toBeChecked();
    expect(
      within(card).getByText('Письма о приближении и наступлении срока курса и о новом цикле обучения'),
    ).toBeInTheDocument();
  });

  it('saves at once on a click, with a toast, and keeps the new value', async () => {
    const { ue, requests } = setup();
    const toggle = await reminderSwitch();
    expect(toggle).toBeChecked();
    await ue.click(toggle);
    expect(await screen.findByText('Напоминания о сроках отключены')).toBeInTheDocument();
    expect(preferenceCalls(requests)).toEqual([expect.objectContaining({ body: { reminder_mails: false } })]);
    expect(toggle).not.toBeChecked();
    await ue.click(toggle);
    expect(await screen.findByText('Напоминания о сроках включены')).toBeInTheDocument();
    expect(preferenceCalls(requests).map((r) => r.body)).toEqual([{ reminder_mails: false }, { reminder_mails: true }]);
    expect(toggle).toBeChecked();
  });

  it.each<[string, Reply, string]>([
    [
      'the server message',
      {
        status: 422,
        data: { result: { success: false, message: 'Укажите, присылать ли напоминания о сроках: да или нет' } },
      },
      'Укажите, присылать ли напоминания о сроках: да или нет',
    ],
    [
      '"Не удалось сохранить настройки уведомлений" with no answer',
      () => networkError(),
      'Не удалось сохранить настройки уведомлений',
    ],
  ])('a failure shows %s and puts the switch back', async (_, reply, text) => {
    const { ue } = setup({ preferences: reply });
    const toggle = await reminderSwitch();
    await ue.click(toggle);
    expect(await screen.findByText(text)).toBeInTheDocument();
    expect(toggle).toBeChecked();
  });

  it('shows managers the weekly digest switch, saved apart from the reminders; learners do not see it', async () => {
    const { ue, requests } = setup({
      profile: profileReply({ ...learner, role: { name: 'Руководитель' }, digest_mails: true }),
    });
    const digest = await screen.findByRole('switch', { name: /^Еженедельная сводка по команде/ });
    expect(digest).toBeChecked();
    await ue.click(digest);
    expect(await screen.findByText('Еженедельная сводка отключена')).toBeInTheDocument();
    expect(preferenceCalls(requests).map((r) => r.body)).toEqual([{ reminder_mails: true, digest_mails: false }]);
    expect(digest).not.toBeChecked();
    expect(await reminderSwitch()).toBeChecked();
  });

  it('flips the switch in the click itself, before the save is under way (CI found a browser checking at once)', async () => {
    setup({ profile: profileReply({ ...learner, role: { name: 'Руководитель' }, digest_mails: true }) });
    const digest = await screen.findByRole('switch', { name: /^Еженедельная сводка по команде/ });
    const reminders = await reminderSwitch();
    fireEvent.click(digest);
    expect(digest).not.toBeChecked();
    expect(reminders).toBeChecked();
    expect(await screen.findByText('Еженедельная сводка отключена')).toBeInTheDocument();
    fireEvent.click(reminders);
    expect(reminders).not.toBeChecked();
    expect(digest).not.toBeChecked();
    expect(await screen.findByText('Напоминания о сроках отключены')).toBeInTheDocument();
  });

  it('has no digest switch for a learner', async () => {
    setup();
    await reminderSwitch();
    expect(screen.queryByRole('switch', { name: /^Еженедельная сводка/ })).not.toBeInTheDocument();
  });
});
