import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, type Browser, type Page } from '@playwright/test';
import { DEMO_PASSWORD, ROOT, startServer, type RunningServer } from '../server.js';
import { mailbox, signIn, submitSignIn, toast } from './helpers.js';
import { startSmtp, type ReceivedMail } from './mail.js';

/** Issue 3: password recovery by a mailed code, against a real SMTP receiver. */

const LEARNER = 'learner@example.com';
const OWN_PASSWORD = 'Свой-пароль-2026';
const SCREENS = join(ROOT, 'e2e/.tmp/screens');

let server: RunningServer;
let smtp: Awaited<ReturnType<typeof startSmtp>>;

test.beforeAll(async () => {
  mkdirSync(SCREENS, { recursive: true });
  smtp = await startSmtp();
  server = await startServer({ MAIL_HOST: '127.0.0.1', MAIL_PORT: String(smtp.port), MAIL_SECURE: 'false' });
});

test.afterAll(async () => {
  server?.process.kill();
  await smtp?.close();
  if (server) rmSync(server.dataDir, { recursive: true, force: true });
});

/** Waits for a mail to `to` whose text matches `pattern`, and returns the first group of the match. */
async function waitForMail(to: string, pattern: RegExp, after = 0): Promise<string> {
  let found: string | undefined;
  await expect
    .poll(
      () => {
        const mail = smtp.mails.slice(after).find((m: ReceivedMail) => m.to.includes(to) && pattern.test(m.text));
        found = mail?.text.match(pattern)?.[1];
        return found !== undefined;
      },
      { message: `a mail to ${to} matching ${pattern}`, timeout: 15_000 },
    )
    .toBe(true);
  return found ?? '';
}

async function newPage(browser: Browser, viewport?: { width: number; height: number }): Promise<Page> {
  const context = await browser.newContext(viewport ? { viewport } : {});
  return context.newPage();
}

test('recovers a password by the mailed code; the old password and the old session stop working', async ({
  browser,
}) => {
  test.setTimeout(60_000);

  // The "old session": the learner is signed in elsewhere.
  const old = await newPage(browser);
  await signIn(old, LEARNER, DEMO_PASSWORD, { url: server.url });
  await old.getByRole('navigation', { name: 'Главное меню' }).getByRole('link', { name: 'Мой профиль' }).click();
  await expect(old).toHaveURL(`${server.url}/profile`);

  // Recovery in another browser.
  const page = await newPage(browser);
  await page.goto(`${server.url}/login`);
  await page.getByRole('link', { name: 'Забыли пароль?' }).click();
  await expect(page).toHaveURL(`${server.url}/recovery`);
  await expect(page.getByText('@example.com')).toBeVisible();
  await page.screenshot({ path: join(SCREENS, 'recovery-request.png'), fullPage: true });

  const mailsBefore = smtp.mails.length;
  await page.getByLabel('Почта', { exact: true }).fill(mailbox(LEARNER));
  await page.getByRole('button', { name: 'Отправить письмо' }).click();
  await expect(page).toHaveURL(`${server.url}/recovery/confirm`);
  await expect(page.getByText(`На почту ${LEARNER} отправлен код`)).toBeVisible();
  const check = page.getByRole('button', { name: 'Проверить код' });
  await expect(check).toBeDisabled();

  const code = await waitForMail(LEARNER, /^\s*(\d{6})\s*$/m, mailsBefore);
  expect(code).toMatch(/^\d{6}$/);
  await page.getByRole('textbox', { name: 'Цифра 1 из 6' }).click();
  await page.keyboard.type(code);
  for (const [i, digit] of [...code].entries()) {
    await expect(page.getByRole('textbox', { name: `Цифра ${i + 1} из 6` })).toHaveValue(digit);
  }
  await page.screenshot({ path: join(SCREENS, 'recovery-confirm.png'), fullPage: true });
  await expect(check).toBeEnabled();
  await check.click();

  await expect(page.getByText('Новый пароль отправлен на email')).toBeVisible();
  await page.screenshot({ path: join(SCREENS, 'recovery-success.png'), fullPage: true });
  const password = await waitForMail(LEARNER, /Новый пароль: (\S+)/, mailsBefore);
  expect(password.length).toBeGreaterThanOrEqual(8);

  // Back to sign-in with the new password.
  await page.getByRole('button', { name: 'Вернуться ко входу' }).click();
  await expect(page).toHaveURL(`${server.url}/login`);
  await page.getByLabel('Почта', { exact: true }).fill(mailbox(LEARNER));
  await page.getByLabel('Пароль', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Авторизоваться' }).click();
  await expect(page).toHaveURL(`${server.url}/`);
  // A mailed password is replaced by the learner's own before anything else.
  const own = page.getByRole('form', { name: 'Придумайте свой пароль' });
  await own.getByLabel('Новый пароль').fill(OWN_PASSWORD);
  await own.getByLabel('Подтверждение пароля').fill(OWN_PASSWORD);
  await own.getByRole('button', { name: 'Сохранить пароль' }).click();
  await expect(page.getByRole('button', { name: 'Меню пользователя' })).toBeVisible();

  // The old password no longer works.
  const other = await newPage(browser);
  await submitSignIn(other, LEARNER, DEMO_PASSWORD, { url: server.url });
  await expect(toast(other, 'Неверный логин или пароль')).toBeVisible();
  await expect(other).toHaveURL(`${server.url}/login`);

  // The old session has ended: its next API call answers 401 and a reload lands on /login.
  expect((await old.request.get(`${server.url}/api/menu`)).status()).toBe(401);
  await old.reload();
  await expect(old).toHaveURL(`${server.url}/login`);

  for (const p of [old, page, other]) await p.context().close();
});

test('a wrong code shows the server message; the code page fits a phone screen', async ({ browser }) => {
  const page = await newPage(browser, { width: 390, height: 844 });
  await page.goto(`${server.url}/recovery`);
  // An address without an account: the answer is the same and the flow moves on.
  await page.getByLabel('Почта', { exact: true }).fill('nobody@example.org');
  await page.getByRole('button', { name: 'Отправить письмо' }).click();
  await expect(page.getByText('На почту nobody@example.org отправлен код')).toBeVisible();

  const last = page.getByRole('textbox', { name: 'Цифра 6 из 6' });
  await expect(last).toBeInViewport({ ratio: 1 });
  // The 'Вставить' button reads the clipboard: only digits are kept.
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
  await page.evaluate("navigator.clipboard.writeText('98 76-5')");
  await page.getByRole('button', { name: 'Вставить' }).click();
  for (const [i, digit] of [...'98765', ''].entries()) {
    await expect(page.getByRole('textbox', { name: `Цифра ${i + 1} из 6` })).toHaveValue(digit);
  }
  await expect(page.getByRole('button', { name: 'Проверить код' })).toBeDisabled();
  // A paste into any box keeps only the digits, at most six.
  await page.getByRole('textbox', { name: 'Цифра 3 из 6' }).click();
  await page.evaluate(`(() => {
    const data = new DataTransfer();
    data.setData('text/plain', 'код 12-34 56 789');
    document.activeElement.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
  })()`);
  for (const [i, digit] of [...'123456'].entries()) {
    await expect(page.getByRole('textbox', { name: `Цифра ${i + 1} из 6` })).toHaveValue(digit);
  }
  await page.screenshot({ path: join(SCREENS, 'recovery-confirm-phone.png'), fullPage: true });
  await page.getByRole('button', { name: 'Проверить код' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Неверный или устаревший код' })).toBeVisible();
  await page.screenshot({ path: join(SCREENS, 'recovery-wrong-code-phone.png'), fullPage: true });
  await page.context().close();
});
