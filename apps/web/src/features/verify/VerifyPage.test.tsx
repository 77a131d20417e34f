import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { browser } from '../../lib/browser';
import { verification } from '../../test/certificates';
import { mockHttp, testConfig, type MockReply } from '../../test/http';
import { renderRoutes } from '../../test/render';
import VerifyPage from './VerifyPage';

let restore: () => void = () => {};
afterEach(() => restore());

const NUMBER = 'C-ABCD-EFGH-JKLM';

function setup(answer: MockReply, path = `/verify/${NUMBER}`) {
  const mock = mockHttp({
    'GET /api/config': { status: 200, data: testConfig },
    [`GET /api/certificates/verify/${NUMBER}`]: answer,
  });
  restore = mock.restore;
  renderRoutes([{ path: '/verify/:number', Component: VerifyPage }], path);
  return mock;
}

const found = (over: Parameters<typeof verification>[0] = {}): MockReply => ({
  status: 200,
  data: { result: { success: true, certificate: verification(over) } },
});

describe('Certificate verification page', () => {
  it('says a valid certificate is valid, with who, what and when', async () => {
    const mock = setup(found({ valid_until: '2027-03-12T09:00:00.000Z' }));
    expect(await screen.findByRole('heading', { name: 'Сертификат действителен' })).toBeInTheDocument();
    expect(screen.getByText('Иванов Иван')).toBeInTheDocument();
    expect(screen.getByText('Охрана труда')).toBeInTheDocument();
    expect(screen.getByText('12 марта 2026')).toBeInTheDocument();
    expect(screen.getByText('12 марта 2027')).toBeInTheDocument();
    expect(screen.getByText(NUMBER)).toBeInTheDocument();
    // no session is asked for: the page is public
    expect(mock.requests.map((r) => r.url)).not.toContain('/api/check-auth');
  });

  it('says when it has expired, and "Бессрочно" is for one without an end', async () => {
    setup(found({ status: 'expired', valid_until: '2026-01-01T09:00:00.000Z' }));
    expect(await screen.findByRole('heading', { name: 'Срок действия сертификата истек' })).toBeInTheDocument();
    restore();
    setup(found());
    expect(await screen.findByText('Бессрочно')).toBeInTheDocument();
  });

  it('says it was revoked, and why', async () => {
    setup(found({ status: 'revoked', revoked_at: '2026-04-01T09:00:00.000Z', revoke_reason: 'Выдан по ошибке' }));
    expect(await screen.findByRole('heading', { name: 'Сертификат отозван' })).toBeInTheDocument();
    expect(screen.getByText('Причина отзыва: Выдан по ошибке')).toBeInTheDocument();
  });

  it('says "Сертификат не найден" for an unknown or malformed number', async () => {
    setup({ status: 404, data: { result: { success: false, message: 'Сертификат не найден' } } });
    expect(await screen.findByRole('heading', { name: 'Сертификат не найден' })).toBeInTheDocument();
    restore();
    setup({ status: 422, data: { result: { success: false, message: 'Неверный номер сертификата' } } });
    expect(await screen.findByRole('heading', { name: 'Сертификат не найден' })).toBeInTheDocument();
  });

  it('asks to wait when checked too often, and a 401 never sends the visitor to sign in', async () => {
    setup({ status: 429, data: { result: { success: false, message: 'Слишком много запросов' } } });
    expect(await screen.findByRole('heading', { name: 'Слишком много проверок' })).toBeInTheDocument();
    restore();
    const navigated: string[] = [];
    const original = browser.navigate;
    browser.navigate = (path: string) => void navigated.push(path);
    try {
      setup({ status: 401, data: {} });
      expect(await screen.findByRole('heading', { name: 'Не удалось проверить сертификат' })).toBeInTheDocument();
      expect(navigated).toEqual([]);
    } finally {
      browser.navigate = original;
    }
  });
});
