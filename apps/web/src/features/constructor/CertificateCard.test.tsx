import type { CertificateSettings } from '@lms/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { mockHttp, type MockReply, type RecordedRequest } from '../../test/http';
import { renderAt, resetToasts } from '../../test/render';
import { setupUser } from '../../test/user';
import { CertificateCard } from './CertificateCard';
import { issuedText } from './certificateTexts';

let restore: () => void = () => {};
afterEach(() => {
  restore();
  resetToasts();
});

const OFF: CertificateSettings = {
  enabled: false,
  title: 'Сертификат',
  signer_name: null,
  signer_position: null,
  logo: null,
};

function setup(settings: CertificateSettings = OFF, issued = 3) {
  const saved = (request: RecordedRequest): MockReply => {
    const body = request.body as CertificateSettings;
    return {
      status: 200,
      data: {
        result: {
          success: true,
          message: 'Настройки сертификата сохранены',
          settings: { ...settings, ...body, logo: body.logo === null ? null : settings.logo },
          issued,
        },
      },
    };
  };
  const mock = mockHttp({
    'GET /api/courses/5/certificate': { status: 200, data: { result: { success: true, settings } } },
    'PUT /api/courses/5/certificate': saved,
  });
  restore = mock.restore;
  renderAt(<CertificateCard courseId={5} />);
  return { ...mock, ue: setupUser() };
}

describe('Course settings, certificate card', () => {
  it('switches certificates on with a signer and says how many were issued at once', async () => {
    const { ue, requests } = setup();
    const card = await screen.findByRole('region', { name: 'Сертификат' });
    expect(await within(card).findByLabelText('Название сертификата', { exact: false })).toHaveValue('Сертификат');
    await ue.click(within(card).getByRole('switch', { name: /Выдавать сертификат/ }));
    await ue.type(within(card).getByLabelText('Подписант'), 'Петров Иван Сергеевич');
    await ue.type(within(card).getByLabelText('Должность подписанта'), 'Директор');
    await ue.click(within(card).getByRole('button', { name: 'Сохранить сертификат' }));
    await waitFor(() => expect(requests.some((r) => r.method === 'PUT')).toBe(true));
    expect(requests.find((r) => r.method === 'PUT')?.body).toEqual({
      enabled: true,
      title: 'Сертификат',
      signer_name: 'Петров Иван Сергеевич',
      signer_position: 'Директор',
    });
    expect(
      await screen.findByText('Настройки сертификата сохранены. Выдано 3 сертификата тем, кто уже завершил курс'),
    ).toBeInTheDocument();
  });

  it('needs a title', async () => {
    const { ue, requests } = setup();
    const title = await screen.findByLabelText('Название сертификата', { exact: false });
    await ue.clear(title);
    await ue.click(screen.getByRole('button', { name: 'Сохранить сертификат' }));
    expect(screen.getByText('Введите название сертификата')).toBeInTheDocument();
    expect(requests.filter((r) => r.method === 'PUT')).toHaveLength(0);
  });

  it('shows the logo and removes it', async () => {
    const { ue, requests } = setup({ ...OFF, enabled: true, logo: '/storage/certificates/logo.png' });
    expect(await screen.findByRole('img', { name: 'Логотип компании' })).toHaveAttribute(
      'src',
      '/storage/certificates/logo.png',
    );
    await ue.click(screen.getByRole('button', { name: 'Удалить' }));
    await waitFor(() => expect(screen.queryByRole('img', { name: 'Логотип компании' })).not.toBeInTheDocument());
    expect(requests.find((r) => r.method === 'PUT')?.body).toMatchObject({ enabled: true, logo: null });
    expect(await screen.findByText('Логотип удален')).toBeInTheDocument();
  });

  it('puts the count in Russian', () => {
    expect(issuedText(1)).toBe('Выдан 1 сертификат тем, кто уже завершил курс');
    expect(issuedText(3)).toMatch(/^Выдано 3 сертификата /);
    expect(issuedText(5)).toMatch(/^Выдано 5 сертификатов /);
    expect(issuedText(21)).toMatch(/^Выдан 21 сертификат /);
    expect(issuedText(11)).toMatch(/^Выдано 11 сертификатов /);
  });
});
