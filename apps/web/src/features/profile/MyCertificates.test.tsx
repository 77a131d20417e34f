import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { certificateItem } from '../../test/certificates';
import { mockHttp, testConfig, type MockReply } from '../../test/http';
import { renderAt } from '../../test/render';
import { MyCertificates } from './MyCertificates';

let restore: () => void = () => {};
afterEach(() => restore());

function setup(answer: MockReply) {
  const mock = mockHttp({ 'GET /api/config': { status: 200, data: testConfig }, 'GET /api/my/certificates': answer });
  restore = mock.restore;
  renderAt(<MyCertificates />, '/profile');
}

const list = (...items: ReturnType<typeof certificateItem>[]): MockReply => ({
  status: 200,
  data: { result: { success: true, items } },
});

describe('Profile, my certificates', () => {
  it('lists each certificate: course, dates, status, the PDF and the check', async () => {
    setup(
      list(
        certificateItem({ number: 'C-AAAA-BBBB-CCCC', valid_until: '2027-03-12T09:00:00.000Z' }),
        certificateItem({
          number: 'C-DDDD-EEEE-FFFF',
          course_title: 'Переговоры',
          status: 'revoked',
          revoke_reason: 'Выдан по ошибке',
        }),
        certificateItem({ number: 'C-GGGG-HHHH-JJJJ', course_title: 'Тайм-менеджмент', status: 'expired' }),
      ),
    );
    const section = await screen.findByRole('region', { name: 'Мои сертификаты' });
    const [valid, revoked, expired] = (await within(section).findAllByRole('listitem')) as [
      HTMLElement,
      HTMLElement,
      HTMLElement,
    ];
    expect(within(valid).getByText('Охрана труда')).toBeInTheDocument();
    expect(within(valid).getByText('Завершен: 12 марта 2026 · Действителен до 12 марта 2027')).toBeInTheDocument();
    expect(within(valid).getByText('Действителен')).toBeInTheDocument();
    expect(within(valid).getByRole('link', { name: 'Скачать PDF: Охрана труда' })).toHaveAttribute(
      'href',
      '/api/certificates/C-AAAA-BBBB-CCCC/pdf',
    );
    const check = within(valid).getByRole('link', { name: 'Проверить' });
    expect(check).toHaveAttribute('href', '/verify/C-AAAA-BBBB-CCCC');
    expect(check).toHaveAttribute('target', '_blank');

    expect(within(revoked).getByText('Отозван')).toBeInTheDocument();
    expect(within(revoked).getByText('Причина: Выдан по ошибке')).toBeInTheDocument();
    expect(within(revoked).getByText(/Бессрочно/)).toBeInTheDocument();
    expect(within(expired).getByText('Срок действия истек')).toBeInTheDocument();
  });

  it('says there are none yet', async () => {
    setup(list());
    expect(await screen.findByText(/Сертификатов пока нет/)).toBeInTheDocument();
  });

  it('offers to try again when the list cannot be read', async () => {
    setup({ status: 500, data: {} });
    expect(await screen.findByText('Не удалось загрузить сертификаты')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Повторить' })).toBeInTheDocument();
  });
});
