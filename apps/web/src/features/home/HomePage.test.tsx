import type { AuthUser } from '@lms/contract';
import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { COURSE_PLACEHOLDER_IMAGE } from '../../shared/CourseCard';
import { mockHttp, type MockReply } from '../../test/http';
import { renderAt } from '../../test/render';
import { homeCategories, learnerUser, startedLessons } from './fixtures';
import HomePage from './HomePage';
import { setupUser } from '../../test/user';

let restore: () => void = () => {};
afterEach(() => restore());

interface SetupOptions {
  user?: AuthUser;
  courses?: MockReply | (() => Promise<MockReply>);
  lessons?: MockReply;
}

function setup(opts: SetupOptions = {}) {
  const mock = mockHttp({
    'GET /api/check-auth': { status: 200, data: opts.user ?? learnerUser },
    'GET /api/user/courses': opts.courses ?? {
      status: 200,
      data: { result: { success: true, categories: homeCategories } },
    },
    'GET /api/user/started-lessons': opts.lessons ?? {
      status: 200,
      data: { result: { success: true, items: startedLessons(2) } },
    },
  });
  restore = mock.restore;
  return { ...renderAt(<HomePage />), requests: mock.requests, ue: setupUser() };
}

const card = (name: string) => screen.getByText(name).closest('a') as HTMLElement;

describe('home page', () => {
  it('greets the user by the second word of the name', async () => {
    setup({ user: { ...learnerUser, name: 'Петрова Мария Сергеевна' } });
    expect(await screen.findByRole('heading', { level: 1, name: 'Мария, добрый день!' })).toBeInTheDocument();
    expect(
      screen.getByText('Сегодня отличный день, чтобы узнать новое или закрепить знания на практике'),
    ).toBeInTheDocument();
  });

  it('shows "Загрузка курсов..." while the courses load', async () => {
    let answer: (reply: MockReply) => void = () => {};
    setup({ courses: () => new Promise<MockReply>((resolve) => (answer = resolve)) });
    expect(await screen.findByText('Загрузка курсов...')).toBeInTheDocument();
    answer({ status: 200, data: { result: { success: true, categories: homeCategories } } });
    expect(await screen.findByText('Работа с CRM')).toBeInTheDocument();
    expect(screen.queryByText('Загрузка курсов...')).not.toBeInTheDocument();
  });

  it.each([
    ['a failure', { status: 500, data: { result: { success: false, message: 'Ошибка' } } }],
    ['success false', { status: 200, data: { result: { success: false } } }],
  ])('shows "Ошибка при загрузке курсов" on %s', async (_, reply) => {
    setup({ courses: reply });
    expect(await screen.findByText('Ошибка при загрузке курсов')).toBeInTheDocument();
  });

  it('groups courses by category and hides empty categories', async () => {
    setup();
    expect(await screen.findByRole('heading', { name: 'Обязательное обучение' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Навыки' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Без категории' })).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Пустая категория' })).not.toBeInTheDocument();
    const required = screen.getByRole('region', { name: 'Обязательное обучение' });
    expect(within(required).getAllByRole('link')).toHaveLength(2);
  });

  it('shows the card counters, deadline texts, progress and completion', async () => {
    setup();
    await screen.findByText('Охрана труда и пожарная безопасность');

    const safety = card('Охрана труда и пожарная безопасность');
    expect(safety).toHaveAttribute('href', '/courses/11');
    expect(safety.querySelector('img')).toHaveAttribute('src', '/storage/demo/cover.png');
    expect(safety).toHaveTextContent('Учебные группы: 2');
    expect(safety).toHaveTextContent('Ученики: 14');
    expect(within(safety).getByTestId('course-deadline')).toHaveTextContent('Осталось 5 дней');
    expect(within(safety).getByTestId('course-deadline')).toHaveAttribute('data-deadline-tone', 'normal');
    expect(within(safety).getByText('1/3 лекций')).toBeInTheDocument();
    expect(within(safety).getByText('1/2 тестов')).toBeInTheDocument();
    expect(within(safety).getByRole('progressbar', { name: 'Прогресс по курсу' })).toBeInTheDocument();
    expect(within(safety).getByText('40%')).toBeInTheDocument();
    expect(within(safety).queryByText('Курс пройден')).not.toBeInTheDocument();

    const infosec = card('Информационная безопасность');
    expect(within(infosec).getByTestId('course-deadline')).toHaveTextContent(/^Просрочено$/);
    expect(within(infosec).getByTestId('course-deadline')).toHaveAttribute('data-deadline-tone', 'overdue');
    expect(within(infosec).getByText('0/4 лекций')).toBeInTheDocument();
    expect(within(infosec).queryByText(/тестов/)).not.toBeInTheDocument();
    expect(within(infosec).queryByRole('progressbar')).not.toBeInTheDocument();
    expect(infosec.querySelector('img')).toHaveAttribute('src', COURSE_PLACEHOLDER_IMAGE);

    const negotiation = card('Эффективные переговоры');
    // completed: nothing is left to do, so no countdown (whatever the date and status)
    expect(within(negotiation).queryByTestId('course-deadline')).not.toBeInTheDocument();
    expect(within(negotiation).getByText('100%')).toBeInTheDocument();
    expect(within(negotiation).getByText('Курс пройден')).toBeInTheDocument();

    const crm = card('Работа с CRM');
    expect(within(crm).getByTestId('course-deadline')).toHaveTextContent('Осталось 21 день');
    expect(within(crm).queryByText(/лекций|тестов/)).not.toBeInTheDocument();
  });

  it('searches course names (trimmed, any case) and hides categories with no match', async () => {
    const { ue } = setup();
    await screen.findByText('Работа с CRM');
    const search = screen.getByRole('textbox', { name: 'Поиск по курсам' });
    expect(search).toHaveAttribute('placeholder', 'Поиск по курсам');

    // The query is pasted: what is tested is the filter, not each keystroke redrawing the page.
    await ue.click(search);
    await ue.paste('  БЕЗОПАСНОСТЬ ');
    expect(screen.getByText('Охрана труда и пожарная безопасность')).toBeInTheDocument();
    expect(screen.getByText('Информационная безопасность')).toBeInTheDocument();
    expect(screen.queryByText('Эффективные переговоры')).not.toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Навыки' })).not.toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Без категории' })).not.toBeInTheDocument();

    await ue.clear(search);
    await ue.paste('Астрономия');
    expect(screen.getByText('По запросу "Астрономия" ничего не найдено')).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Обязательное обучение' })).not.toBeInTheDocument();

    await ue.click(screen.getByRole('button', { name: 'Сбросить поиск' }));
    expect(screen.getByText('Работа с CRM')).toBeInTheDocument();
  });

  it('links started lessons to /courses/{course_id}/lesson/{id} with a placeholder image', async () => {
    setup();
    const block = await screen.findByRole('region', { name: 'Продолжить просмотр' });
    const links = within(block).getAllByRole('link');
    expect(links).toHaveLength(2);
    expect(links[0]).toHaveAttribute('href', '/courses/11/lesson/100');
    expect(links[0]).toHaveTextContent('Урок 1');
    expect(links[0]).toHaveTextContent('Модуль 1');
    expect(links[0]).toHaveTextContent('Охрана труда');
    expect(links[0]!.querySelector('img')).toHaveAttribute('src', '/storage/demo/lesson.png');
    expect(links[1]!.querySelector('img')).toHaveAttribute('src', COURSE_PLACEHOLDER_IMAGE);
  });

  it.each([
    ['an empty list', { status: 200, data: { result: { success: true, items: [] } } }],
    ['a failure', { status: 500, data: {} }],
  ])('hides "Продолжить просмотр" for %s', async (_, lessons) => {
    setup({ lessons });
    await screen.findByText('Работа с CRM');
    expect(screen.queryByText('Продолжить просмотр')).not.toBeInTheDocument();
  });
});
