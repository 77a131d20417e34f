import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { formatDateTime } from '../../lib/lessonTime';
import { mockHttp, type MockReply } from '../../test/http';
import { renderAt } from '../../test/render';
import { setupUser } from '../../test/user';
import CoursePage from './CoursePage';
import { courseModules, item, summary } from './fixtures';

let restore: () => void = () => {};
afterEach(() => restore());

function setup(opts: { modules?: MockReply; course?: MockReply; path?: string } = {}) {
  const mock = mockHttp({
    'GET /api/courses/5/modules-structured': opts.modules ?? {
      status: 200,
      data: { result: { success: true, modules: courseModules } },
    },
    'GET /api/admin/courses/5': opts.course ?? { status: 200, data: { result: { success: true, course: summary() } } },
  });
  restore = mock.restore;
  return { ...renderAt(<CoursePage />, opts.path ?? '/courses/5', '/courses/:courseId'), ue: setupUser() };
}

/** Noon of the day `days` from today, in local time, as the server sends it (ISO). */
const daysFromToday = (days: number) => {
  const today = new Date();
  return new Date(today.getFullYear(), today.getMonth(), today.getDate() + days, 12).toISOString();
};

const itemLink = (name: string) => screen.getByText(name).closest('a') as HTMLElement;

describe('course page (docs/product.md §Course page)', () => {
  it('shows the summary card with its counters and progress', async () => {
    setup();
    const card = await screen.findByTestId('course-summary');
    expect(within(card).getByText('Курс')).toBeInTheDocument();
    expect(within(card).getByRole('heading', { name: 'Охрана труда' })).toBeInTheDocument();
    expect(within(card).getByText('2 / 5 лекций')).toBeInTheDocument();
    expect(within(card).getByText('1 / 2 тестов')).toBeInTheDocument();
    expect(within(card).getByText('43%')).toBeInTheDocument();
    expect(within(card).queryByText('Курс пройден')).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'На главную' })).toHaveAttribute('href', '/');
  });

  it('shows counters only above 0, and "Курс пройден" when complete', async () => {
    setup({
      course: {
        status: 200,
        data: {
          result: {
            success: true,
            course: summary({
              tests_count: 0,
              completed_tests_count: 0,
              completed_lessons_count: 5,
              progress: 100,
              complete: true,
            }),
          },
        },
      },
    });
    const card = await screen.findByTestId('course-summary');
    expect(within(card).getByText('5 / 5 лекций')).toBeInTheDocument();
    expect(within(card).queryByText(/тестов/)).not.toBeInTheDocument();
    expect(within(card).getByText('Курс пройден')).toBeInTheDocument();
  });

  it('shows the cover, the description and the deadline as the home card does', async () => {
    setup({
      course: {
        status: 200,
        data: {
          result: {
            success: true,
            course: summary({
              image: '/storage/courses/cover.png',
              description: 'Правила безопасной работы в офисе.\nПройдите до конца месяца.',
              deadline: daysFromToday(2),
              deadline_status: 'almost_overdue',
            }),
          },
        },
      },
    });
    const card = await screen.findByTestId('course-summary');
    expect(card.querySelector('img')).toHaveAttribute('src', '/storage/courses/cover.png');
    expect(within(card).getByText(/Правила безопасной работы в офисе\./)).toHaveTextContent(
      'Правила безопасной работы в офисе. Пройдите до конца месяца.',
    );
    const deadline = within(card).getByTestId('course-deadline');
    expect(deadline).toHaveTextContent('Осталось 2 дня');
    expect(deadline).toHaveAttribute('data-deadline-tone', 'almost_overdue');
  });

  it("says 'Просрочено' in the overdue colour when the server says so", async () => {
    setup({
      course: {
        status: 200,
        data: {
          result: { success: true, course: summary({ deadline: daysFromToday(-1), deadline_status: 'overdue' }) },
        },
      },
    });
    const deadline = await screen.findByTestId('course-deadline');
    expect(deadline).toHaveTextContent(/^Просрочено$/);
    expect(deadline).toHaveAttribute('data-deadline-tone', 'overdue');
  });

  it('shows no countdown for a completed course, and no deadline or description when there is none', async () => {
    setup({
      course: {
        status: 200,
        data: {
          result: {
            success: true,
            course: summary({
              completed_lessons_count: 5,
              completed_tests_count: 2,
              progress: 100,
              complete: true,
              deadline: daysFromToday(5),
              deadline_status: 'in_order',
            }),
          },
        },
      },
    });
    const card = await screen.findByTestId('course-summary');
    expect(within(card).getByText('Курс пройден')).toBeInTheDocument();
    expect(within(card).queryByTestId('course-deadline')).not.toBeInTheDocument();
    expect(within(card).queryByText(/Осталось/)).not.toBeInTheDocument();
  });

  it('agrees the counters with their totals (Russian plural forms)', async () => {
    setup({
      course: {
        status: 200,
        data: {
          result: {
            success: true,
            course: summary({
              lessons_count: 21,
              completed_lessons_count: 5,
              tests_count: 1,
              completed_tests_count: 0,
            }),
          },
        },
      },
    });
    const card = await screen.findByTestId('course-summary');
    expect(within(card).getByText('5 / 21 лекции')).toBeInTheDocument();
    expect(within(card).getByText('0 / 1 теста')).toBeInTheDocument();
  });

  it('says "курс не загружен" when the summary fails', async () => {
    setup({ course: { status: 500, data: { result: { success: false, message: 'Ошибка сервера' } } } });
    expect(await screen.findByText('курс не загружен')).toBeInTheDocument();
  });

  it('shows "Ошибка: {message}" when the modules fail', async () => {
    setup({ modules: { status: 500, data: { result: { success: false, message: 'Ошибка сервера' } } } });
    expect(await screen.findByText('Ошибка: Ошибка сервера')).toBeInTheDocument();
  });

  it('a missing course: "Курс не найден" once, with the way home, and nothing of the course page (issue 30)', async () => {
    const missing = { status: 404, data: { result: { success: false, message: 'Курс не найден' } } };
    setup({ modules: missing, course: missing });
    expect(await screen.findByRole('heading', { level: 1, name: 'Курс не найден' })).toBeInTheDocument();
    expect(screen.getAllByText(/Курс не найден/)).toHaveLength(1);
    expect(screen.queryByText('курс не загружен')).not.toBeInTheDocument();
    expect(screen.queryByText('Модули курса')).not.toBeInTheDocument();
    expect(screen.queryByRole('switch', { name: 'Скрыть пройденные лекции' })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'На главную' })).toHaveAttribute('href', '/');
  });

  it('says so when the course has no published items', async () => {
    setup({ modules: { status: 200, data: { result: { success: true, modules: [] } } } });
    expect(await screen.findByText('В курсе пока нет опубликованных занятий')).toBeInTheDocument();
  });

  it('says "ID курса не найден" for a bad address', () => {
    setup({ path: '/courses/abc' });
    expect(screen.getByText('ID курса не найден')).toBeInTheDocument();
  });

  it('opens the module of the current item, one module at a time', async () => {
    const { ue } = setup();
    expect(await screen.findByText('Практика')).toBeVisible();
    expect(itemLink('Практика')).toHaveAttribute('href', '/courses/5/lesson/22');
    expect(screen.getByRole('button', { name: /Основы/ })).toHaveAttribute('aria-expanded', 'true');
    expect(screen.getByRole('button', { name: /Введение/ })).toHaveAttribute('aria-expanded', 'false');
    await ue.click(screen.getByRole('button', { name: /Введение/ }));
    expect(screen.getByRole('button', { name: /Введение/ })).toHaveAttribute('aria-expanded', 'true');
    expect(screen.getByRole('button', { name: /Основы/ })).toHaveAttribute('aria-expanded', 'false');
    expect(screen.getByLabelText('Модуль пройден')).toBeInTheDocument();
    expect(screen.getAllByLabelText('Модуль в процессе')).toHaveLength(2);
  });

  it('hides finished lessons, passed tests and modules left empty', async () => {
    const { ue } = setup();
    await screen.findByText('Практика');
    expect(screen.getByText('Правила')).toBeInTheDocument();
    expect(screen.getByText('Введение')).toBeInTheDocument();
    await ue.click(screen.getByRole('switch', { name: 'Скрыть пройденные лекции' }));
    expect(screen.queryByText('Правила')).not.toBeInTheDocument();
    expect(screen.queryByText('Введение')).not.toBeInTheDocument();
    expect(screen.queryByText('Знакомство')).not.toBeInTheDocument();
    expect(screen.getByText('Практика')).toBeInTheDocument();
    expect(screen.getByText('Итоговый тест')).toBeInTheDocument();
    expect(screen.getByText('Заключение')).toBeInTheDocument();
    await ue.click(screen.getByRole('switch', { name: 'Скрыть пройденные лекции' }));
    expect(screen.getByText('Правила')).toBeInTheDocument();
  });

  it('shows the tooltips with their dates', async () => {
    const { ue } = setup();
    await screen.findByText('Практика');
    await ue.hover(itemLink('Практика'));
    expect(await screen.findByText(`Начат: ${formatDateTime('2026-03-03T09:15:00.000Z')}`)).toBeInTheDocument();
    await ue.hover(itemLink('Итоговый тест'));
    expect(
      await screen.findByText(`Не завершен, время попытки: ${formatDateTime('2026-03-04T10:20:00.000Z')}`),
    ).toBeInTheDocument();
    await ue.hover(itemLink('Правила'));
    expect(await screen.findByText(`Завершен: ${formatDateTime('2026-03-02T07:30:00.000Z')}`)).toBeInTheDocument();
  });

  it('marks SCORM items and shows their score once the package reported one', async () => {
    const modules = [
      {
        id: 4,
        name: 'Инструктаж',
        status: 'process',
        lessonsList: [
          item({
            id: 41,
            name: 'Пожарная безопасность',
            kind: 'scorm',
            score: 85,
            started_at: '2026-03-05T09:00:00.000Z',
          }),
          item({ id: 42, name: 'Электробезопасность', kind: 'scorm', score: null }),
          item({ id: 43, name: 'Памятка' }),
        ],
      },
    ];
    setup({ modules: { status: 200, data: { result: { success: true, modules } } } });
    const scored = await screen.findByText('Пожарная безопасность');
    const withScore = scored.closest('a') as HTMLElement;
    expect(within(withScore).getByLabelText('SCORM-пакет')).toBeInTheDocument();
    expect(withScore).toHaveTextContent('85%');
    const withoutScore = itemLink('Электробезопасность');
    expect(within(withoutScore).getByLabelText('SCORM-пакет')).toBeInTheDocument();
    expect(withoutScore).not.toHaveTextContent('%');
    expect(within(itemLink('Памятка')).getByLabelText('Лекция')).toBeInTheDocument();
  });
});
