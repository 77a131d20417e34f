import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { mockHttp, type MockReply } from '../../test/http';
import { renderRoutes, resetToasts } from '../../test/render';
import { setupUser } from '../../test/user';
import { courseModules, lessonContents } from './fixtures';
import LessonPage from './LessonPage';

let restore: () => void = () => {};
afterEach(() => {
  restore();
  resetToasts();
});

function setup(routes: Record<string, MockReply | (() => MockReply)> = {}) {
  let lesson = lessonContents();
  const mock = mockHttp({
    'GET /api/courses/5/lessons/22/contents': () => ({ status: 200, data: { result: lesson } }),
    'GET /api/courses/5/modules-structured': {
      status: 200,
      data: { result: { success: true, modules: courseModules } },
    },
    'POST /api/lessons/22/start': () => {
      lesson = { ...lesson, started_at: '2026-03-03T09:20:00.000Z' };
      return {
        status: 200,
        data: {
          result: { success: true, message: 'Урок успешно начат', started_at: lesson.started_at, completed_at: null },
        },
      };
    },
    'POST /api/lessons/22/complete': () => {
      lesson = { ...lesson, completed_at: '2026-03-03T09:25:00.000Z' };
      return {
        status: 200,
        data: {
          result: {
            success: true,
            message: 'Урок успешно завершен',
            started_at: lesson.started_at,
            completed_at: lesson.completed_at,
          },
        },
      };
    },
    ...routes,
  });
  restore = mock.restore;
  const rendered = renderRoutes(
    [
      { path: '/courses/:courseId/lesson/:lessonId', Component: LessonPage },
      { path: '/courses/:courseId', element: <div>Страница курса</div> },
    ],
    '/courses/5/lesson/22',
  );
  return { ...rendered, requests: mock.requests, ue: setupUser() };
}

describe('lesson page (docs/product.md §Lesson page)', () => {
  it('asks to start a new lesson; "Да" starts it', async () => {
    const { ue, requests, queryClient } = setup();
    const dialog = await screen.findByRole('dialog', { name: 'Начало урока' });
    expect(within(dialog).getByText('Вы хотите начать урок?')).toBeInTheDocument();
    const invalidated: unknown[] = [];
    queryClient.getQueryCache().subscribe((event) => {
      if (event.type === 'updated' && event.action.type === 'invalidate') invalidated.push(event.query.queryKey);
    });
    await ue.click(within(dialog).getByRole('button', { name: 'Да' }));
    expect(await screen.findByText('Урок успешно начат')).toBeInTheDocument();
    expect(requests.some((r) => r.method === 'POST' && r.url === '/api/lessons/22/start')).toBe(true);
    expect(await screen.findByText(/Время урока/)).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Начало урока' })).not.toBeInTheDocument());
    expect(invalidated).toContainEqual(['learning', 'lesson', 5, 22]);
  });

  it('"Отмена" goes back to the course page', async () => {
    const { ue } = setup();
    const dialog = await screen.findByRole('dialog', { name: 'Начало урока' });
    await ue.click(within(dialog).getByRole('button', { name: 'Отмена' }));
    expect(await screen.findByText('Страница курса')).toBeInTheDocument();
  });

  it('completes the lesson and refreshes the course and home queries', async () => {
    const { ue, queryClient } = setup();
    queryClient.setQueryData(['user-courses'], []);
    queryClient.setQueryData(['started-lessons'], []);
    const dialog = await screen.findByRole('dialog', { name: 'Начало урока' });
    await ue.click(within(dialog).getByRole('button', { name: 'Да' }));
    await screen.findByText(/Время урока/);
    await ue.click(screen.getByRole('button', { name: 'Отметить урок завершенным' }));
    expect(await screen.findByText('Урок успешно завершен')).toBeInTheDocument();
    expect(await screen.findByText('Урок завершен, затраченное время: 00:05:00')).toBeInTheDocument();
    expect(queryClient.getQueryState(['user-courses'])?.isInvalidated).toBe(true);
    expect(queryClient.getQueryState(['started-lessons'])?.isInvalidated).toBe(true);
  });

  it('toasts "Ошибка при начале урока" when the start fails', async () => {
    const { ue } = setup({ 'POST /api/lessons/22/start': { status: 500, data: { result: { success: false } } } });
    const dialog = await screen.findByRole('dialog', { name: 'Начало урока' });
    await ue.click(within(dialog).getByRole('button', { name: 'Да' }));
    expect(await screen.findByText('Ошибка при начале урока')).toBeInTheDocument();
  });

  it('toasts "Ошибка при завершении урока" when the completion fails', async () => {
    const { ue } = setup({
      'GET /api/courses/5/lessons/22/contents': {
        status: 200,
        data: { result: lessonContents({ started_at: '2026-03-03T09:00:00.000Z' }) },
      },
      'POST /api/lessons/22/complete': { status: 500, data: { result: { success: false } } },
    });
    await ue.click(await screen.findByRole('button', { name: 'Отметить урок завершенным' }));
    expect(await screen.findByText('Ошибка при завершении урока')).toBeInTheDocument();
  });

  it('links the neighbours and opens the contents panel', async () => {
    const { ue } = setup({
      'GET /api/courses/5/lessons/22/contents': {
        status: 200,
        data: { result: lessonContents({ completed_at: '2026-03-03T09:00:00.000Z' }) },
      },
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'Практика' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Предыдущий урок' })).toHaveAttribute('href', '/courses/5/lesson/21');
    expect(screen.getByRole('link', { name: 'Следующий урок' })).toHaveAttribute('href', '/courses/5/test/23');
    await ue.click(screen.getByRole('button', { name: 'Содержание' }));
    const panel = await screen.findByRole('dialog', { name: 'Содержание' });
    expect(await within(panel).findByText('Практика')).toBeInTheDocument();
    await ue.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Содержание' })).not.toBeInTheDocument());
  });

  it('a missing lesson: "Урок не найден" once, with the way back to the course (issue 30)', async () => {
    setup({
      'GET /api/courses/5/lessons/22/contents': {
        status: 404,
        data: { result: { success: false, message: 'Урок не найден' } },
      },
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'Урок не найден' })).toBeInTheDocument();
    expect(screen.getAllByText(/не найден/)).toHaveLength(1);
    expect(screen.getAllByRole('link', { name: 'К курсу' }).map((a) => a.getAttribute('href'))).toContain('/courses/5');
  });

  it('a lesson of a missing course: "Курс не найден" once, with the way home (issue 30)', async () => {
    setup({
      'GET /api/courses/5/lessons/22/contents': {
        status: 404,
        data: { result: { success: false, message: 'Курс не найден' } },
      },
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'Курс не найден' })).toBeInTheDocument();
    expect(screen.getAllByText(/Курс не найден/)).toHaveLength(1);
    expect(screen.getByRole('link', { name: 'На главную' })).toHaveAttribute('href', '/');
    expect(screen.queryByRole('link', { name: 'К курсу' })).not.toBeInTheDocument();
  });

  it('shows "Ошибка: {message}" when the lesson fails to load otherwise', async () => {
    setup({
      'GET /api/courses/5/lessons/22/contents': {
        status: 500,
        data: { result: { success: false, message: 'Ошибка сервера' } },
      },
    });
    expect(await screen.findByText('Ошибка: Ошибка сервера')).toBeInTheDocument();
  });
});
