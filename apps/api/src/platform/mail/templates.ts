import { formatCount, type RuForms } from '@lms/contract';
import type { PeopleTime } from '../peopleTime.js';
import type { AuditedMail, MailMessage } from './mailer.js';

/** Every mail the platform sends, in one place: Russian, HTML with a plain-text part. */
export interface MailContext {
  companyName: string;
  /** Address of the platform, for links; omitted from the text when unknown. */
  publicUrl: string | undefined;
  /** Dates in mails are the company's calendar days (TIMEZONE), as everywhere the server writes one. */
  people: PeopleTime;
}

const escapeHtml = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

function layout(ctx: MailContext, title: string, paragraphs: string[], code?: string, target?: string) {
  const href = target ?? ctx.publicUrl;
  const link = href ? `<p><a href="${escapeHtml(href)}">${escapeHtml(href)}</a></p>` : '';
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
    ...(href ? ['', href] : []),
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

/** What a mail with a password says about the account: its login, where to sign in, what comes next. */
export interface MailedAccount {
  login: string;
  password: string;
  /** The platform's address (PUBLIC_URL, else the one the request came to); the link is its /login. */
  site: string;
}

const signInUrl = (site: string): string => `${site.replace(/\/+$/, '')}/login`;
const SIGN_IN = 'Войти на платформу:';

/** A new password after an admin reset or a reset by the recovery code. */
export function newPasswordMail(ctx: MailContext, to: string, account: MailedAccount): MailMessage {
  const { html, text } = layout(
    ctx,
    'Ваш новый пароль',
    [
      'Пароль от вашей учётной записи изменён. Все прежние сеансы завершены.',
      `Логин: ${account.login}`,
      `Новый пароль: ${account.password}`,
      'При входе платформа попросит придумать собственный пароль.',
      SIGN_IN,
    ],
    undefined,
    signInUrl(account.site),
  );
  return { to, subject: `${ctx.companyName}: новый пароль`, html, text };
}

/**
 * The new-password mail to a user, as the mail log records it (kind `new_password`): after an
 * administrator's reset or a reset by the recovery code. The login is the user's address.
 */
export function newPasswordMailTo(
  ctx: MailContext,
  user: { id: number; email: string },
  account: Omit<MailedAccount, 'login'>,
): AuditedMail {
  return {
    ...newPasswordMail(ctx, user.email, { login: user.email, ...account }),
    audit: { kind: 'new_password', user_id: user.id, course_id: null },
  };
}

/** The account an administrator created: login, password and where to sign in. */
export function welcomeMail(ctx: MailContext, to: string, name: string, account: MailedAccount): MailMessage {
  const { html, text } = layout(
    ctx,
    'Добро пожаловать на платформу обучения',
    [
      `${name}, для вас создана учётная запись на платформе обучения.`,
      `Логин: ${account.login}`,
      `Пароль: ${account.password}`,
      'При первом входе платформа попросит придумать собственный пароль.',
      SIGN_IN,
    ],
    undefined,
    signInUrl(account.site),
  );
  return { to, subject: `${ctx.companyName}: доступ к платформе обучения`, html, text };
}

export type DeadlineReminderKind = 'reminder_almost_overdue' | 'reminder_overdue' | 'reminder_new_cycle';

/** A learner's reminder about one course: its warning window, its deadline passed, or a new cycle. */
export function deadlineReminderMail(
  ctx: MailContext,
  to: string,
  input: { kind: DeadlineReminderKind; name: string; courseId: number; course: string; deadline: string | null },
): MailMessage {
  const url = ctx.publicUrl ? `${ctx.publicUrl}/courses/${input.courseId}` : undefined;
  const until = input.deadline ? ctx.people.date(input.deadline) : null;
  const course = `«${input.course}»`;
  const content: Record<DeadlineReminderKind, { title: string; subject: string; lines: string[] }> = {
    reminder_almost_overdue: {
      title: 'Срок прохождения курса скоро истекает',
      subject: `срок курса ${course} истекает ${until ?? ''}`.trim(),
      lines: [`${input.name}, напоминаем: курс ${course} нужно пройти до ${until ?? ''}.`.replace(' до .', '.')],
    },
    reminder_overdue: {
      title: 'Срок прохождения курса истёк',
      subject: `срок курса ${course} истёк`,
      lines: [
        `${input.name}, срок прохождения курса ${course} истёк${until ? ` ${until}` : ''}.`,
        'Пройдите курс как можно скорее.',
      ],
    },
    reminder_new_cycle: {
      title: 'Пора пройти курс повторно',
      subject: `пора пройти курс ${course} повторно`,
      lines: [
        `${input.name}, начался новый цикл обучения по курсу ${course}: курс нужно пройти повторно${until ? ` до ${until}` : ''}.`,
      ],
    },
  };
  const c = content[input.kind];
  const { html, text } = layout(ctx, c.title, [...c.lines, ...(url ? ['Перейти к курсу:'] : [])], undefined, url);
  return { to, subject: `${ctx.companyName}: ${c.subject}`, html, text };
}

const COURSES: RuForms = ['курс', 'курса', 'курсов'];
/** After 'у': 'у 1 сотрудника', 'у 2 сотрудников', 'у 5 сотрудников'. */
const OF_EMPLOYEES: RuForms = ['сотрудника', 'сотрудников', 'сотрудников'];

/** One group of the digest: how many courses, of how many people, and the most urgent of them. */
interface DigestGroup {
  total: number;
  people: number;
  first: readonly { name: string; course: string; deadline: string }[];
}

/**
 * A manager's (or admin's) weekly picture: who is overdue or almost overdue, on what, with counts.
 * Each group lists its most urgent courses; the rest are counted and are on the analytics screen.
 */
export function teamDigestMail(
  ctx: MailContext,
  to: string,
  input: { name: string; companyWide: boolean; overdue: DigestGroup; almost: DigestGroup },
): MailMessage {
  const { overdue, almost } = input;
  const line = (e: DigestGroup['first'][number]) => `${e.name} — «${e.course}», срок ${ctx.people.date(e.deadline)}`;
  const list = (title: string, g: DigestGroup) =>
    g.total === 0
      ? []
      : [
          title,
          ...g.first.map(line),
          ...(g.total > g.first.length
            ? [`…и ещё ${g.total - g.first.length}: полный список в разделе «Аналитика».`]
            : []),
        ];
  const counts = (g: DigestGroup) =>
    g.total === 0 ? 'нет' : `${formatCount(g.total, COURSES)} у ${formatCount(g.people, OF_EMPLOYEES)}`;
  const paragraphs = [
    `${input.name}, сводка по обучению ${input.companyWide ? 'сотрудников компании' : 'сотрудников вашего отдела'} за неделю.`,
    `Просрочено: ${counts(overdue)}. Почти просрочено: ${counts(almost)}.`,
    ...list('Просрочено:', overdue),
    ...list('Почти просрочено:', almost),
  ];
  const url = ctx.publicUrl ? `${ctx.publicUrl}/analytics` : undefined;
  const { html, text } = layout(ctx, 'Сводка по срокам обучения', paragraphs, undefined, url);
  return {
    to,
    subject: `${ctx.companyName}: просрочено ${overdue.total}, почти просрочено ${almost.total}`,
    html,
    text,
  };
}
