import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import {
  BASE_DN,
  PEOPLE_DN,
  READER_DN,
  READER_PASSWORD,
  startSlapd,
  type Slapd,
} from '../../apps/api/src/test/slapd.js';
import { ADMIN, ROOT, startServer, type RunningServer } from '../server.js';
import { signIn, toast } from './helpers.js';

/**
 * Issue 32: an admin syncs the employees with the company's directory — a real OpenLDAP (Debian's
 * slapd, as in the API's directory tests) with departments as OUs — sees the dry run, applies it, and
 * finds the synced people marked, their directory fields read-only.
 */

const SCREENS = join(ROOT, 'e2e/.tmp/screens');

test.describe('directory sync', () => {
  let slapd: Slapd;
  let server: RunningServer;

  test.beforeAll(async () => {
    mkdirSync(SCREENS, { recursive: true });
    slapd = await startSlapd();
    const tree = await slapd.admin();
    await tree.add(`ou=Логистика,${PEOPLE_DN}`, { objectClass: 'organizationalUnit', ou: 'Логистика' });
    const people = [
      ['kataloga', 'Каталогова', 'Анна', 'Диспетчер', false],
      ['katalogov', 'Каталогов', 'Борис', 'Водитель', false],
      ['otkluchen', 'Отключённый', 'Виктор', 'Водитель', true],
    ] as const;
    for (const [uid, sn, givenName, title, disabled] of people) {
      await tree.add(`uid=${uid},ou=Логистика,${PEOPLE_DN}`, {
        objectClass: 'inetOrgPerson',
        uid,
        cn: `${givenName} ${sn}`,
        sn,
        givenName,
        title,
        mail: `${uid}@example.com`,
        ...(disabled ? { employeeType: 'disabled' } : {}),
      });
    }
    await tree.unbind();
    server = await startServer({
      LDAP_URL: slapd.url,
      LDAP_BIND_DN: READER_DN,
      LDAP_BIND_PASSWORD: READER_PASSWORD,
      LDAP_BASE_DN: BASE_DN,
      LDAP_USER_FILTER: '(objectClass=inetOrgPerson)',
      LDAP_DISABLED_FILTER: '(employeeType=disabled)',
      LDAP_ATTR_ID: 'entryUUID',
      LDAP_DEPARTMENT_FROM_OU: 'true',
      LDAP_SYNC_INTERVAL_MINUTES: '0',
      LDAP_PAGE_SIZE: '40',
    });
  });
  test.afterAll(async () => {
    server?.process.kill();
    if (server) rmSync(server.dataDir, { recursive: true, force: true });
    await slapd?.stop();
  });

  test('an admin syncs, applies the dry run, and finds the synced people marked and read-only', async ({ browser }) => {
    test.setTimeout(60_000);
    const context = await browser.newContext({ baseURL: server.url, viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    await signIn(page, ADMIN.email, ADMIN.password, { url: server.url });

    await page.goto('/settings');
    await page.getByRole('button', { name: 'Синхронизировать' }).click();
    await expect(page).toHaveURL(/\/settings\/import\?batch=\d+$/);
    await expect(page.getByRole('heading', { name: 'Синхронизация с каталогом' })).toBeVisible();
    await expect(page.getByText(/^Каталог прочитан\./)).toBeVisible();
    const counts = page.getByRole('list', { name: 'Итоги проверки' });
    await expect(counts).toContainText('Новые: 2');
    await expect(counts).toContainText('Без изменений: 1');
    await expect(page.getByText('Логистика').first()).toBeVisible();
    await page.screenshot({ path: join(SCREENS, 'directory-dry-run-desktop.png'), fullPage: true });

    await page.getByRole('button', { name: 'Применить изменения' }).click();
    await expect(toast(page, 'Изменения применены. Добавлено: 2, изменено: 0, удалено: 0.')).toBeVisible();

    await page.goto('/settings');
    await page.getByPlaceholder(/Поиск/).fill('Каталог');
    const row = page.getByTestId('user-row').filter({ hasText: 'Каталогова Анна' });
    await expect(row).toBeVisible();
    await expect(row.getByRole('img', { name: 'Из каталога (Active Directory)' })).toBeVisible();
    await expect(page.getByTestId('user-row').filter({ hasText: 'Отключённый' })).toHaveCount(0);
    await page.screenshot({ path: join(SCREENS, 'directory-users-desktop.png'), fullPage: true });

    await row.click();
    const form = page.getByRole('form', { name: 'Редактирование сотрудника' });
    await expect(form.getByRole('textbox', { name: 'Фамилия' })).toBeDisabled();
    await expect(form.getByRole('textbox', { name: 'Должность' })).toBeDisabled();
    await expect(form.getByText(/синхронизируется с каталогом/)).toBeVisible();
    await expect(form.getByRole('button', { name: 'Удалить' })).toHaveCount(0);
    await page.screenshot({ path: join(SCREENS, 'directory-edit-desktop.png') });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: join(SCREENS, 'directory-edit-phone.png') });
    await context.close();
  });
});
