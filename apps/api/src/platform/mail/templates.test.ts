import { describe, expect, it } from 'vitest';
import { PeopleTime } from '../peopleTime.js';
import { newPasswordMail, teamDigestMail, welcomeMail } from './templates.js';

const ctx = { companyName: 'Ромашка', publicUrl: 'https://lms.example.com', people: new PeopleTime('Europe/Moscow') };
const line = (name: string, day: number) => ({
  name,
  course: 'Охрана труда',
  deadline: `2026-03-${String(day).padStart(2, '0')}T09:00:00.000Z`,
});

describe('the weekly digest mail', () => {
  it('counts every course, lists the first ones and points to the analytics screen for the rest', () => {
    const mail = teamDigestMail(ctx, 'boss@example.com', {
      name: 'Ольга',
      companyWide: true,
      overdue: { total: 120, people: 80, first: [line('Иванова Анна', 2), line('Петров Борис', 3)] },
      almost: { total: 0, people: 0, first: [] },
    });
    expect(mail.subject).toBe('Ромашка: просрочено 120, почти просрочено 0');
    expect(mail.text).toContain('Ольга, сводка по обучению сотрудников компании за неделю.');
    expect(mail.text).toContain('Просрочено: 120 курсов у 80 сотрудников. Почти просрочено: нет.');
    expect(mail.text).toContain('Иванова Анна — «Охрана труда», срок 02.03.2026');
    expect(mail.text).toContain('…и ещё 118: полный список в разделе «Аналитика».');
    expect(mail.text).not.toContain('Почти просрочено:\n');
    expect(mail.text).toContain('https://lms.example.com/analytics');
    expect(mail.html).toContain('…и ещё 118');
  });

  it('has no "ещё" line when every course is listed', () => {
    const mail = teamDigestMail(ctx, 'boss@example.com', {
      name: 'Ольга',
      companyWide: false,
      overdue: { total: 0, people: 0, first: [] },
      almost: { total: 1, people: 1, first: [line('Иванова Анна', 12)] },
    });
    expect(mail.text).toContain('сотрудников вашего отдела');
    expect(mail.text).toContain('Почти просрочено:');
    expect(mail.text).not.toContain('ещё');
  });
});

describe('the mails with a password', () => {
  const account = {
    login: 'anna@example.com',
    password: 'Xy7-secret',
    site: 'https://lms.example.com/',
  };

  it('the welcome mail: login, password, the sign-in link and what the first sign-in asks', () => {
    const mail = welcomeMail(ctx, 'anna@example.com', 'Анна Смирнова', account);
    expect(mail.text).toContain('Логин: anna@example.com');
    expect(mail.text).toContain('Пароль: Xy7-secret');
    expect(mail.text).toContain('При первом входе платформа попросит придумать собственный пароль.');
    expect(mail.text).toContain('Войти на платформу:\n\nhttps://lms.example.com/login');
    expect(mail.html).toContain('<a href="https://lms.example.com/login">');
  });

  it('a new password (an admin reset or the recovery code) asks for an own one at sign-in', () => {
    const byAdmin = newPasswordMail(ctx, 'anna@example.com', account);
    expect(byAdmin.text).toContain('Логин: anna@example.com');
    expect(byAdmin.text).toContain('Новый пароль: Xy7-secret');
    expect(byAdmin.text).toContain('При входе платформа попросит придумать собственный пароль.');
    expect(byAdmin.text).toContain('https://lms.example.com/login');
  });
});
