import type { MailMessage } from './mailer.js';

/** Every mail the platform sends, in one place: Russian, HTML with a plain-text part. */
export interface MailContext {
  companyName: string;
  /** Address of the platform, for links; omitted from the text when unknown. */
  publicUrl: string | undefined;
}

const escapeHtml = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

function layout(ctx: MailContext, title: string, paragraphs: string[], code?: string) {
  const link = ctx.publicUrl ? `<p><a href="${escapeHtml(ctx.publicUrl)}">${escapeHtml(ctx.publicUrl)}</a></p>` : '';
  const html = `<!doctype html><html lang="ru"><body style="font-family:Arial,sans-serif;color:#1f2937;background:#f5f6f8;padding:24px">
<div style="max-width:560px;margin:0 auto;background:#fff;border-radius:8px;padding:24px">
<h2 style="margin-top:0">${escapeHtml(title)}</h2>
${paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`).join('\n')}
${code ? `<p style="font-size:28px;font-weight:bold;letter-spacing:6px;font-family:monospace">${escapeHtml(code)}</p>` : ''}
${link}
<p style="color:#6b7280;font-size:12px">${escapeHtml(ctx.companyName)}. Письмо отправлено автоматически, отвечать на него не нужно.</p>
</div></body></html>`;
  const text = [
    title,
    '',
    ...paragraphs,
    ...(code ? ['', code] : []),
    ...(ctx.publicUrl ? ['', ctx.publicUrl] : []),
    '',
    `${ctx.companyName}`,
  ].join('\n');
  return { html, text };
}

export function recoveryCodeMail(ctx: MailContext, to: string, code: string): MailMessage {
  const { html, text } = layout(
    ctx,
    'Код для восстановления пароля',
    [
      'Вы запросили восстановление пароля. Введите этот код на странице восстановления. Код действует 15 минут.',
      'Если вы не запрашивали восстановление, просто проигнорируйте это письмо.',
    ],
    code,
  );
  return { to, subject: `${ctx.companyName}: код для восстановления пароля`, html, text };
}

export function newPasswordMail(ctx: MailContext, to: string, login: string, password: string): MailMessage {
  const { html, text } = layout(ctx, 'Ваш новый пароль', [
    'Пароль от вашей учётной записи изменён. Все прежние сеансы завершены.',
    `Логин: ${login}`,
    `Новый пароль: ${password}`,
    'Рекомендуем сменить пароль в профиле после входа.',
  ]);
  return { to, subject: `${ctx.companyName}: новый пароль`, html, text };
}

export function welcomeMail(ctx: MailContext, to: string, name: string, login: string, password: string): MailMessage {
  const { html, text } = layout(ctx, 'Добро пожаловать на платформу обучения', [
    `${name}, для вас создана учётная запись на платформе обучения.`,
    `Логин: ${login}`,
    `Пароль: ${password}`,
    'Рекомендуем сменить пароль в профиле после первого входа.',
  ]);
  return { to, subject: `${ctx.companyName}: доступ к платформе обучения`, html, text };
}
