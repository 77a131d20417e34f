import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { batch, importSetup } from './importTesting';
import { ok } from './testing';

/** The directory sync's way in (issue 32): a button where a directory is set up, its dry run on the import screen. */

const setup = importSetup();
const status = (configured: boolean) =>
  ok({ result: { success: true }, data: { configured, interval_minutes: configured ? 60 : null, last: null } });

describe('Settings, the directory sync button', () => {
  it('is not there when no directory is set up', async () => {
    setup('/settings', { 'GET /api/admin/directory-sync': status(false) });
    await screen.findByRole('link', { name: 'Импорт' });
    expect(screen.queryByRole('button', { name: 'Синхронизировать' })).not.toBeInTheDocument();
  });

  it('reads the directory and opens its dry run, which says where it came from and what a sync does', async () => {
    const synced = batch({ source: 'directory', file_name: null, new_departments: [] });
    const { ue, router, calls } = setup(
      '/settings',
      {
        'GET /api/admin/directory-sync': status(true),
        'POST /api/admin/directory-sync': ok({ result: { success: true }, data: synced }, 201),
      },
      { shown: synced },
    );
    await ue.click(await screen.findByRole('button', { name: 'Синхронизировать' }));
    await waitFor(() => expect(router.state.location.search).toBe('?batch=7'));
    expect(calls('/api/admin/directory-sync').map((r) => r.method)).toContain('POST');
    expect(await screen.findByText(/^Каталог прочитан\./)).toBeInTheDocument();
    expect(screen.getByText(/Сотрудников, добавленных вручную, синхронизация не меняет/)).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Синхронизация с каталогом' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Загрузить другой файл' })).not.toBeInTheDocument();
  });

  it('says why when the directory cannot be read', async () => {
    const { ue } = setup('/settings', {
      'GET /api/admin/directory-sync': status(true),
      'POST /api/admin/directory-sync': ok(
        { result: { success: false, message: 'Каталог отклонил вход: проверьте LDAP_BIND_DN и LDAP_BIND_PASSWORD' } },
        502,
      ),
    });
    await ue.click(await screen.findByRole('button', { name: 'Синхронизировать' }));
    expect(
      await screen.findByText(
        'Не удалось синхронизировать: Каталог отклонил вход: проверьте LDAP_BIND_DN и LDAP_BIND_PASSWORD',
      ),
    ).toBeInTheDocument();
  });
});
