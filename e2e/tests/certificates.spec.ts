import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CertificateItem } from '@lms/contract';
import { expect, test, type Browser, type Locator, type Page } from '@playwright/test';
import { ADMIN, DEMO_PASSWORD, LOGIN_DOMAIN, ROOT } from '../server.js';
import { apiCall, signIn, toast } from './helpers.js';

/**
 * Certificates of completion (issue 35): an admin has a course give them; a learner completes it and
 * finds the certificate on the course page and in the profile, downloads its PDF; anyone verifies
 * the number without signing in; the admin revokes it, and the check says so with the reason.
 */

const SCREENS = join(ROOT, 'e2e/.tmp/screens');
const LEARNER = `learner@${LOGIN_DOMAIN}`;
/** A unique title, so the spec can run more than once against one database. */
const TITLE = `Охрана труда ${Date.now().toString(36)}`;
const SIGNER = 'Петров Иван Сергеевич';
const POSITION = 'Генеральный директор';
const REASON = 'Выдан по ошибке';
const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };

test.use({ baseURL: process.env.E2E_BASE_URL });
test.beforeAll(() => mkdirSync(SCREENS, { recursive: true }));

type Created = { result: { item: { id: number } } };

/** A published course with one published lesson, assigned to the learner. */
async function createCourse(page: Page, learnerId: number): Promise<{ courseId: number; lessonId: number }> {
  const courseId = ((await apiCall(page, 'POST', '/api/courses', { name: TITLE })) as Created).result.item.id;
  const moduleId = (
    (await apiCall(page, 'POST', '/api/courses/modules', { name: 'Основы', course_id: courseId })) as Created
  ).result.item.id;
  const lessonId = (
    (await apiCall(page, 'POST', '/api/courses/lessons', { name: 'Инструктаж', module_id: moduleId })) as Created
  ).result.item.id;
  await apiCall(page, 'PUT', `/api/courses/${courseId}/lessons/${lessonId}`, {
    name: 'Инструктаж',
    is_published: true,
  });
  await apiCall(page, 'POST', `/api/courses/${courseId}/publish`, { is_published: true });
  await apiCall(page, 'POST', '/api/admin/user-courses/attach', { user_id: learnerId, course_ids: [courseId] });
  return { courseId, lessonId };
}

async function signedIn(browser: Browser, email: string, password: string): Promise<Page> {
  const page = await (await browser.newContext({ baseURL: process.env.E2E_BASE_URL })).newPage();
  await page.setViewportSize(DESKTOP);
  await signIn(page, email, password);
  return page;
}

/** The page once its animations have ended, at both sizes: the section alone, or what the window shows. */
async function shootBoth(page: Page, name: string, what?: () => Locator) {
  for (const [size, viewport] of [
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ] as const) {
    await page.setViewportSize(viewport);
    await page.evaluate(() => Promise.all(document.getAnimations().map((a) => a.finished.catch(() => a))));
    const path = join(SCREENS, `certificates-${name}-${size}.png`);
    await (what ? what().screenshot({ path }) : page.screenshot({ path, fullPage: true }));
  }
  await page.setViewportSize(DESKTOP);
}

test('a learner earns a certificate, downloads it, anyone verifies it, an admin revokes it', async ({
  page,
  browser,
}) => {
  test.setTimeout(150_000);
  const learner = await signedIn(browser, LEARNER, DEMO_PASSWORD);
  const me = (await apiCall(learner, 'GET', '/api/check-auth')) as { id: number; name: string };

  // the admin has the course give certificates, signed
  await page.setViewportSize(DESKTOP);
  await signIn(page, ADMIN.email, ADMIN.password);
  const { courseId, lessonId } = await createCourse(page, me.id);
  await page.goto(`/management/constructor/${courseId}/settings`);
  const card = page.getByRole('region', { name: 'Сертификат', exact: true });
  await expect(card.getByLabel('Название сертификата')).toHaveValue('Сертификат');
  // by the keyboard: a pointer lands on the sticky page header once the switch is scrolled to the top
  const issue = card.getByRole('switch', { name: 'Выдавать сертификат' });
  await issue.focus();
  await page.keyboard.press('Space');
  await expect(issue).toBeChecked();
  await card.getByLabel('Подписант', { exact: true }).fill(SIGNER);
  await card.getByLabel('Должность подписанта').fill(POSITION);
  await card.getByRole('button', { name: 'Сохранить сертификат' }).click();
  await expect(toast(page, 'Настройки сертификата сохранены')).toBeVisible();
  await shootBoth(page, 'settings', () => card);

  // the learner completes the course's one lesson
  await learner.goto(`/courses/${courseId}/lesson/${lessonId}`);
  const start = learner.getByRole('dialog', { name: 'Начало урока' });
  await start.getByRole('button', { name: 'Да' }).click();
  await learner.getByRole('button', { name: 'Отметить урок завершенным' }).click();
  await expect(toast(learner, 'Урок успешно завершен')).toBeVisible();

  // the course page shows the certificate
  await learner.goto(`/courses/${courseId}`);
  const onCourse = learner.getByTestId('course-certificate');
  await expect(onCourse).toBeVisible();
  await expect(onCourse.getByText('Бессрочно')).toBeVisible();

  // the profile lists it, and its PDF downloads
  await learner.goto('/profile');
  const mine = learner.getByRole('region', { name: 'Мои сертификаты' });
  const item = mine.getByRole('listitem').filter({ hasText: TITLE });
  await expect(item.getByText('Действителен', { exact: true })).toBeVisible();
  await shootBoth(learner, 'profile', () => mine);
  const [download] = await Promise.all([
    learner.waitForEvent('download'),
    item.getByRole('link', { name: `Скачать PDF: ${TITLE}` }).click(),
  ]);
  const pdf = join(SCREENS, 'certificate.pdf');
  await download.saveAs(pdf);
  expect(readFileSync(pdf).subarray(0, 4).toString('latin1')).toBe('%PDF');
  const number = (
    (await apiCall(learner, 'GET', '/api/my/certificates')) as { result: { items: CertificateItem[] } }
  ).result.items.find((c) => c.course_id === courseId)!.number;

  // anyone checks the number, without signing in
  const guestContext = await browser.newContext({ baseURL: process.env.E2E_BASE_URL });
  const guest = await guestContext.newPage();
  await guest.setViewportSize(DESKTOP);
  await guest.goto(`/verify/${number}`);
  await expect(guest.getByRole('heading', { name: 'Сертификат действителен' })).toBeVisible();
  await expect(guest.getByText(me.name, { exact: true })).toBeVisible();
  await expect(guest.getByText(TITLE, { exact: true })).toBeVisible();
  await expect(guest).toHaveURL(new RegExp(`/verify/${number}$`));
  await shootBoth(guest, 'verify-valid');

  // the admin revokes it in 'Сертификаты'
  await page.goto('/settings');
  await page.getByRole('link', { name: 'Сертификаты' }).click();
  await expect(page).toHaveURL(/\/settings\/certificates$/);
  await page.getByRole('searchbox', { name: 'Поиск по ФИО или номеру' }).fill(number);
  await expect(page).toHaveURL(new RegExp(`search=${number}`));
  const row = page.getByTestId('certificate-row').filter({ hasText: number });
  await expect(row).toHaveCount(1);
  await expect(row.getByText('Действителен', { exact: true })).toBeVisible();
  await shootBoth(page, 'admin');
  await row.getByRole('button', { name: `Отозвать сертификат ${number}` }).click();
  const dialog = page.getByRole('dialog', { name: 'Отозвать сертификат' });
  await dialog.getByRole('button', { name: 'Отозвать' }).click();
  await expect(dialog.getByText('Укажите причину отзыва')).toBeVisible();
  await dialog.getByLabel('Причина отзыва').fill(REASON);
  await dialog.getByRole('button', { name: 'Отозвать' }).click();
  await expect(dialog).toBeHidden();
  await expect(row.getByText('Отозван', { exact: true })).toBeVisible();
  await expect(row.getByText(REASON)).toBeVisible();

  // the check now says it is revoked, and why
  await guest.reload();
  await expect(guest.getByRole('heading', { name: 'Сертификат отозван' })).toBeVisible();
  await expect(guest.getByText(REASON)).toBeVisible();
  await shootBoth(guest, 'verify-revoked');

  // an unknown number
  await guest.goto('/verify/C-2222-2222-2222');
  await expect(guest.getByRole('heading', { name: 'Сертификат не найден' })).toBeVisible();
  await guestContext.close();
});
