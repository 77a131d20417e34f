import type { CertificateItem } from '@lms/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { certificateItem } from '../../test/certificates';
import { mockHttp, type MockReply, type RecordedRequest } from '../../test/http';
import { renderRoutes, resetToasts } from '../../test/render';
import { setupUser } from '../../test/user';
import CertificatesPage from './CertificatesPage';
import { ok, settingsRoutes } from './testing';

let restore: () => void = () => {};
afterEach(() => {
  restore();
  resetToasts();
  vi.unstubAllGlobals();
});

const LIST: CertificateItem[] = [
  certificateItem({ number: 'C-AAAA-BBBB-CCCC', learner_name: 'Иванов Иван' }),
  certificateItem({
    number: 'C-DDDD-EEEE-FFFF',
    learner_name: 'Петрова Мария',
    course_id: 102,
    course_title: 'Информационная безопасность',
    valid_until: '2027-03-12T09:00:00.000Z',
  }),
];

const listAnswer = (request: RecordedRequest): MockReply => {
  const params = new URLSearchParams(request.url.split('?')[1] ?? '');
  const status = params.get('status');
  const items = LIST.filter((c) => !status || c.status === status);
  return ok({ result: { success: true, items, total: items.length, page: 1, per_page: 50 } });
};

function setup(
  path = '/settings/certificates',
  more: Record<string, MockReply | ((r: RecordedRequest) => MockReply)> = {},
) {
  const mock = mockHttp(settingsRoutes({ 'GET /api/admin/certificates': listAnswer, ...more }));
  restore = mock.restore;
  const view = renderRoutes([{ path: '/settings/certificates', Component: CertificatesPage }], path);
  const listCalls = () =>
    mock.requests.filter((r) => r.method === 'GET' && r.url.startsWith('/api/admin/certificates?')).map((r) => r.url);
  return { ...view, ...mock, listCalls, ue: setupUser() };
}

const rows = () => screen.queryAllByTestId('certificate-row');

describe('Settings, certificates tab', { timeout: 20_000 }, () => {
  it('is a tab of the settings and lists the certificates', async () => {
    setup();
    const nav = await screen.findByRole('navigation', { name: 'Разделы настроек' });
    expect(within(nav).getByRole('link', { name: 'Сертификаты' })).toHaveAttribute('aria-current', 'page');
    await waitFor(() => expect(rows()).toHaveLength(2));
    const head = within(screen.getByRole('table', { name: 'Сертификаты' }))
      .getAllByRole('columnheader')
      .map((th) => th.textContent);
    expect(head).toEqual(['Номер', 'Сотрудник', 'Курс', 'Завершен', 'Действителен до', 'Статус', 'Действия']);
    const [first, second] = rows() as [HTMLElement, HTMLElement];
    expect(within(first).getByText('Иванов Иван')).toBeInTheDocument();
    expect(within(first).getByText('Бухгалтерия')).toBeInTheDocument();
    expect(within(first).getByText('Бессрочно')).toBeInTheDocument();
    expect(within(first).getByText('Действителен')).toBeInTheDocument();
    expect(within(first).getByRole('link', { name: 'Скачать PDF сертификата C-AAAA-BBBB-CCCC' })).toHaveAttribute(
      'href',
      '/api/certificates/C-AAAA-BBBB-CCCC/pdf',
    );
    expect(within(second).getByText('12 марта 2027')).toBeInTheDocument();
    expect(screen.getByText('2 сертификата')).toBeInTheDocument();
  });

  it('keeps the filters in the address and asks the server with them', async () => {
    const { ue, router, listCalls } = setup('/settings/certificates?status=revoked&course_id=101');
    await waitFor(() => expect(listCalls()).toContain('/api/admin/certificates?course_id=101&status=revoked&page=1'));
    expect(screen.getByRole('combobox', { name: 'Статус' })).toHaveValue('Отозван');
    expect(await screen.findByText('Ничего не найдено')).toBeInTheDocument();

    await ue.click(screen.getByRole('combobox', { name: 'Статус' }));
    await ue.click(await screen.findByRole('option', { name: 'Действителен' }));
    await waitFor(() => expect(router.state.location.search).toBe('?course_id=101&status=valid'));

    await ue.type(screen.getByRole('searchbox', { name: 'Поиск по ФИО или номеру' }), 'Петрова');
    await waitFor(() =>
      expect(router.state.location.search).toBe(
        '?course_id=101&status=valid&search=%D0%9F%D0%B5%D1%82%D1%80%D0%BE%D0%B2%D0%B0',
      ),
    );
    await waitFor(() => expect(listCalls().at(-1)).toContain('search='));

    // the export takes the same filters
    await ue.click(screen.getByRole('button', { name: 'Экспорт в Excel' }));
    const excel = await screen.findByRole('menuitem', { name: 'Excel (.xlsx)' });
    expect(excel.getAttribute('href')).toMatch(
      /^\/api\/admin\/certificates\/export\?format=xlsx&course_id=101&status=valid&search=%D0%9F/,
    );
  });

  it('revokes with a reason, which is required, and the row then says "Отозван"', async () => {
    let revoked = false;
    const { ue, requests } = setup('/settings/certificates', {
      'GET /api/admin/certificates': () =>
        ok({
          result: {
            success: true,
            items: revoked ? [{ ...LIST[0]!, status: 'revoked', revoke_reason: 'Выдан по ошибке' }, LIST[1]] : LIST,
            total: 2,
            page: 1,
            per_page: 50,
          },
        }),
      'POST /api/admin/certificates/C-AAAA-BBBB-CCCC/revoke': (request) => {
        revoked = true;
        const reason = (request.body as { reason: string }).reason;
        return ok({
          result: {
            success: true,
            message: 'Сертификат отозван',
            certificate: { ...LIST[0]!, status: 'revoked', revoke_reason: reason, revoked_at: '2026-04-01T00:00:00Z' },
          },
        });
      },
    });
    await waitFor(() => expect(rows()).toHaveLength(2));
    await ue.click(screen.getByRole('button', { name: 'Отозвать сертификат C-AAAA-BBBB-CCCC' }));
    const dialog = await screen.findByRole('dialog', { name: 'Отозвать сертификат' });
    await ue.click(within(dialog).getByRole('button', { name: 'Отозвать' }));
    expect(within(dialog).getByText('Укажите причину отзыва')).toBeInTheDocument();
    expect(requests.filter((r) => r.method === 'POST')).toHaveLength(0);

    await ue.type(within(dialog).getByLabelText(/Причина отзыва/), 'Выдан по ошибке');
    await ue.click(within(dialog).getByRole('button', { name: 'Отозвать' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(requests.find((r) => r.method === 'POST')?.body).toEqual({ reason: 'Выдан по ошибке' });
    const row = rows()[0] as HTMLElement;
    expect(await within(row).findByText('Отозван')).toBeInTheDocument();
    expect(within(row).getByText('Выдан по ошибке')).toBeInTheDocument();
    expect(within(row).queryByRole('button', { name: /Отозвать/ })).not.toBeInTheDocument();
    expect(await screen.findByText('Сертификат отозван')).toBeInTheDocument();
  });

  it("shows the server's reason when the archive is refused", async () => {
    const fetch = vi.fn(() =>
      Promise.resolve(
        new Response(
          JSON.stringify({
            result: {
              success: false,
              message: 'В архив можно собрать не более 500 сертификатов. Уточните фильтры',
            },
          }),
          { status: 422, headers: { 'Content-Type': 'application/json' } },
        ),
      ),
    );
    vi.stubGlobal('fetch', fetch);
    const { ue } = setup('/settings/certificates?status=valid');
    await waitFor(() => expect(rows()).toHaveLength(2));
    await ue.click(screen.getByRole('button', { name: 'Скачать архив PDF' }));
    expect(
      await screen.findByText('В архив можно собрать не более 500 сертификатов. Уточните фильтры'),
    ).toBeInTheDocument();
    expect(fetch).toHaveBeenCalledWith('/api/admin/certificates/archive?status=valid', expect.anything());
  });
});
