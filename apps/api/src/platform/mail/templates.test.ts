import { describe, expect, it } from 'vitest';
import { PeopleTime } from '../peopleTime.js';
import { teamDigestMail } from './templates.js';

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
    expect(mail.text).toContain('Просрочено: 120 (сотрудников: 80). Почти просрочено: 0 (сотрудников: 0).');
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
