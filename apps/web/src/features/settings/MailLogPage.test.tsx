import type { AuthUser, MailLogItem } from '@lms/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { learnerUser } from '../../test/fixtures';
import { mockHttp, type MockReply, type RecordedRequest } from '../../test/http';
import { renderRoutes, resetToasts } from '../../test/render';
import { setupUser } from '../../test/user';
import { formatSentAt } from './mailLog';
import MailLogPage from './MailLogPage';
import { ok, settingsRoutes } from './testing';
import UsersPage from './UsersPage';

let restore: () => void = () => {};
afterEach(() => {
  restore();
  resetToasts();
});

const mail = (id: number, more: Partial<MailLogItem> = {}): MailLogItem => ({
  id,
  recipient: `user${id}@company.ru`,
  user_name: `Сотрудник ${id}`,
  kind: 'new_user_password',
  course_id: null,
  course_name: null,
  subject: 'ООО «Тест»: доступ к платформе обучения',
  status: 'sent',
  queued_at: '2026-01-15T09:05:00.000Z',
  sent_at: '2026-01-15T09:05:00.000Z',
  attempts: 1,
  error: null,
  next_attempt_at: null,
  ...more,
});

const MAILS: MailLogItem[] = [
  mail(3, {
    recipient: 'ivanov@company.ru',
    user_name: 'Иванов Иван',
    kind: 'reminder_overdue',
    course_id: 101,
    course_name: 'Охрана труда',
    queued_at: '2026-01-16T07:30:00.000Z',
    sent_at: '2026-01-16T07:30:00.000Z',
  }),
  mail(2, { recipient: 'boss@company.ru', user_name: null, kind: 'manager_digest' }),
  mail(1, { recipient: 'petrova@company.ru', user_name: 'Петрова Мария', kind: 'password_recovery' }),
];

/** The server's answer: one page of `list`, newest first as given. */
const logAnswer =
  (list: MailLogItem[]) =>
  (request: RecordedRequest): MockReply => {
    const params = new URLSearchParams(request.url.split('?')[1] ?? '');
    const page = Number(params.get('page') ?? 1);
    const perPage = Number(params.get('per_page') ?? 50);
    const items = list.slice((page - 1) * perPage, page * perPage);
    return ok({ result: { success: true }, items, total: list.length, page, per_page: perPage });
  };

function setup(
  log: MockReply | ((r: RecordedRequest) => MockReply) = logAnswer(MAILS),
  me?: AuthUser,
  more: Record<string, MockReply | ((r: RecordedRequest) => MockReply)> = {},
) {
  const mock = mockHttp(settingsRoutes({ 'GET /api/admin/mail-log': log, ...more }, me));
  restore = mock.restore;
  const view = renderRoutes(
    [
      { path: '/settings', Component: UsersPage },
      { path: '/settings/mail-log', Component: MailLogPage },
    ],
    '/settings/mail-log',
  );
  const logCalls = () => mock.requests.filter((r) => r.url.startsWith('/api/admin/mail-log'));
  return { ...view, logCalls, ue: setupUser() };
}

const rows = () => screen.queryAllByTestId('mail-row');

describe('Settings, mail log tab', { timeout: 20_000 }, () => {
  it('is a tab of the settings and lists the mails: recipient, kind, course, status, time', async () => {
    const { logCalls } = setup();
    expect(await screen.findByRole('heading', { name: 'Настройка школы' })).toBeInTheDocument();
    const nav = screen.getByRole('navigation', { name: 'Разделы настроек' });
    const tab = within(nav).getByRole('link', { name: 'Журнал писем' });
    expect(tab).toHaveAttribute('href', '/settings/mail-log');
    expect(tab).toHaveAttribute('aria-current', 'page');

    await waitFor(() => expect(rows()).toHaveLength(3));
    const table = screen.getByRole('table', { name: 'Журнал писем' });
    const head = within(table)
      .getAllByRole('columnheader')
      .map((th) => th.textContent);
    expect(head).toEqual(['Получатель', 'Тип', 'Курс', 'Статус', 'Время']);

    const [overdue, digest, recovery] = rows() as [HTMLElement, HTMLElement, HTMLElement];
    expect(within(overdue).getByText('ivanov@company.ru')).toBeInTheDocument();
    expect(within(overdue).getByText('Иванов Иван')).toBeInTheDocument();
    expect(within(overdue).getByText('Срок истёк')).toBeInTheDocument();
    expect(within(overdue).getByText('Охрана труда')).toBeInTheDocument();
    expect(within(overdue).getByText('Отправлено')).toBeInTheDocument();
    // On the company's clock (Moscow in the config): 07:30 UTC is 10:30 there, whatever the test's zone.
    const time = await within(overdue).findByText('16.01.2026, 10:30');
    expect(time).toHaveAttribute('datetime', '2026-01-16T07:30:00.000Z');
    expect(formatSentAt('2026-01-16T22:30:00.000Z', 'Europe/Moscow')).toBe('17.01.2026, 01:30');
    expect(within(digest).getByText('Сводка руководителю')).toBeInTheDocument();
    expect(within(digest).getByText('—')).toBeInTheDocument();
    expect(within(recovery).getByText('Восстановление пароля')).toBeInTheDocument();

    expect(logCalls().map((r) => r.url)).toEqual(['/api/admin/mail-log?page=1&per_page=50']);
    // a single page needs no page navigation
    expect(screen.queryByRole('navigation', { name: 'Страницы журнала писем' })).not.toBeInTheDocument();
  });

  it('says "Писем пока нет" when nothing was sent', async () => {
    setup(logAnswer([]));
    expect(await screen.findByText('Писем пока нет')).toBeInTheDocument();
    expect(rows()).toHaveLength(0);
  });

  it('pages through the log on the server, 50 a page', async () => {
    const many = Array.from({ length: 120 }, (_, i) => mail(120 - i, { recipient: `m${120 - i}@company.ru` }));
    const { ue, logCalls } = setup(logAnswer(many));
    await waitFor(() => expect(rows()).toHaveLength(50));
    const pages = screen.getByRole('navigation', { name: 'Страницы журнала писем' });
    expect(within(pages).getByText('1–50 из 120')).toBeInTheDocument();
    await ue.click(within(pages).getByRole('button', { name: 'Страница 3' }));
    await waitFor(() => expect(rows()).toHaveLength(20));
    expect(within(rows()[0] as HTMLElement).getByText('m20@company.ru')).toBeInTheDocument();
    expect(within(pages).getByText('101–120 из 120')).toBeInTheDocument();
    expect(logCalls().map((r) => r.url)).toContain('/api/admin/mail-log?page=3&per_page=50');
  });

  it('shows the load error with a retry', async () => {
    let calls = 0;
    const { ue } = setup((request) => {
      calls += 1;
      return calls === 1 ? { status: 500, data: 'Internal' } : logAnswer(MAILS)(request);
    });
    // The inline error and its toast are both alerts; which renders first depends on timing.
    await waitFor(() =>
      expect(screen.getAllByRole('alert').some((a) => a.textContent?.includes('Ошибка при загрузке данных'))).toBe(
        true,
      ),
    );
    await ue.click(screen.getByRole('button', { name: 'Повторить' }));
    await waitFor(() => expect(rows()).toHaveLength(3));
  });

  it('shows each status: waiting with the last failure and the next try, failed with its reason', async () => {
    setup(
      logAnswer([
        mail(5, {
          recipient: 'wait@company.ru',
          status: 'queued',
          sent_at: null,
          attempts: 2,
          error: 'Почтовый сервер недоступен',
          next_attempt_at: '2026-01-15T09:10:00.000Z',
        }),
        mail(4, {
          recipient: 'gone@company.ru',
          status: 'failed',
          sent_at: null,
          attempts: 1,
          error: 'Почтовый сервер отказался принять письмо: 550 Mailbox unavailable',
        }),
        mail(3, { recipient: 'new@company.ru', status: 'queued', sent_at: null, attempts: 0 }),
      ]),
    );
    await waitFor(() => expect(rows()).toHaveLength(3));
    const [waiting, failed, fresh] = rows() as [HTMLElement, HTMLElement, HTMLElement];
    expect(within(waiting).getByText('В очереди')).toBeInTheDocument();
    expect(within(waiting).getByText('Последняя попытка не удалась: Почтовый сервер недоступен')).toBeInTheDocument();
    expect(await within(waiting).findByText('Следующая попытка: 15.01.2026, 12:10')).toBeInTheDocument();
    expect(within(waiting).queryByRole('button')).not.toBeInTheDocument();
    expect(within(failed).getByText('Не отправлено')).toBeInTheDocument();
    expect(
      within(failed).getByText('Почтовый сервер отказался принять письмо: 550 Mailbox unavailable'),
    ).toBeInTheDocument();
    expect(
      within(failed).getByRole('button', { name: 'Отправить снова письмо для gone@company.ru' }),
    ).toBeInTheDocument();
    // Not sent yet: the time is when it was queued.
    expect(within(fresh).getByText('В очереди')).toBeInTheDocument();
    expect(await within(fresh).findByText('15.01.2026, 12:05')).toBeInTheDocument();
    expect(within(fresh).queryByText(/Следующая попытка/)).not.toBeInTheDocument();
  });

  it('sends a failed mail again: the server’s message, then the log read again with its new status', async () => {
    let list = [
      mail(4, { recipient: 'gone@company.ru', status: 'failed', sent_at: null, error: 'Почтовый сервер недоступен' }),
    ];
    const { ue, logCalls } = setup((request) => logAnswer(list)(request), undefined, {
      'POST /api/admin/mail-log/4/resend': () => {
        list = [{ ...(list[0] as MailLogItem), status: 'queued', error: null, attempts: 0 }];
        return ok({
          result: { success: true, message: 'Письмо снова поставлено в очередь на отправку' },
          item: list[0],
        });
      },
    });
    await waitFor(() => expect(rows()).toHaveLength(1));
    await ue.click(screen.getByRole('button', { name: 'Отправить снова письмо для gone@company.ru' }));
    expect(await screen.findByText('Письмо снова поставлено в очередь на отправку')).toBeInTheDocument();
    await waitFor(() => expect(within(rows()[0] as HTMLElement).getByText('В очереди')).toBeInTheDocument());
    expect(screen.queryByRole('button', { name: /Отправить снова/ })).not.toBeInTheDocument();
    expect(logCalls().filter((r) => r.method === 'GET')).toHaveLength(2);
  });

  it('says why a resend was refused', async () => {
    const { ue } = setup(
      logAnswer([mail(4, { recipient: 'gone@company.ru', status: 'failed', sent_at: null, error: 'x' })]),
      undefined,
      {
        'POST /api/admin/mail-log/4/resend': {
          status: 422,
          data: {
            result: {
              success: false,
              message: 'Отправить снова можно только письмо, которое не удалось отправить',
            },
          },
        },
      },
    );
    await waitFor(() => expect(rows()).toHaveLength(1));
    await ue.click(screen.getByRole('button', { name: 'Отправить снова письмо для gone@company.ru' }));
    expect(
      await screen.findByText(
        'Не удалось отправить письмо снова: Отправить снова можно только письмо, которое не удалось отправить',
      ),
    ).toBeInTheDocument();
  });

  it('shows "Доступ запрещен" to a learner and asks nothing', async () => {
    const { logCalls } = setup(logAnswer(MAILS), learnerUser);
    expect(await screen.findByText('Доступ запрещен')).toBeInTheDocument();
    expect(logCalls()).toHaveLength(0);
  });
});
