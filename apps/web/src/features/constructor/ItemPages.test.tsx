import type { ConstructorModule, ConstructorTest, LessonBlock, ModuleLesson, TestQuestion } from '@lms/contract';
import { configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Outlet, useLocation } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Link } from '../../shared/Link';
import { mockHttp, type MockReply, type RecordedRequest } from '../../test/http';
import { renderRoutes, resetToasts } from '../../test/render';
import ConstructorPage from './ConstructorPage';
import CourseSettingsPage from './CourseSettingsPage';
import TestEditorPage from './TestEditorPage';
import { authorUser, constructorCourse } from '../../test/fixtures';

/*
 * The constructor's lesson and test pages as a whole (issue 30): leaving with unsaved changes asks
 * first, whichever in-app way is taken; the test's publish switch; deleting the module of the open
 * item; the breadcrumb naming the page.
 */

configure({ asyncUtilTimeout: 5000 });

const author = authorUser;

const course = constructorCourse();

const quiz: ConstructorTest = {
  id: 40,
  name: 'Итоговый тест',
  module_id: 2,
  type: 'test',
  is_published: false,
  sort_order: 0,
  passing_score: 80,
  has_timer: false,
  timer_seconds: 0,
  has_retake_interval: false,
  retake_interval_seconds: 0,
  has_attempts_limit: false,
  max_attempts: 1,
  has_question_bank: false,
  question_bank_size: 0,
  randomize_questions: false,
  randomize_answers: false,
  show_correct_answers: false,
};

const lessonItem = (id: number, name: string, sort_order: number): ModuleLesson => ({
  id,
  name,
  module_id: 1,
  is_published: false,
  sort_order,
  type: 'lesson',
});

function initialModules(): ConstructorModule[] {
  const base = { course_id: 7, status: 'process' as const, is_published: false, published_at: null };
  return [
    {
      ...base,
      id: 1,
      name: 'Основы',
      sort_order: 0,
      lessons: [lessonItem(11, 'Знакомство', 0), lessonItem(12, 'Скрипты', 1)],
      tests: [],
    },
    {
      ...base,
      id: 2,
      name: 'Проверка',
      sort_order: 1,
      lessons: [],
      tests: [{ id: 40, name: 'Итоговый тест', module_id: 2, is_published: false, sort_order: 0, type: 'test' }],
    },
  ];
}

const question: TestQuestion = {
  id: 50,
  title: '',
  type: 'text',
  question_text: 'Столица России?',
  sort_order: 0,
  answers: [
    { id: 60, answer_text: 'Москва', is_correct: true, image_path: null },
    { id: 61, answer_text: 'Казань', is_correct: false, image_path: null },
  ],
};

const titleBlock: LessonBlock = {
  id: 100,
  type: 'title',
  content: 'Заголовок',
  file_path: null,
  original_filename: null,
  sort_order: -2,
};

type Handler = MockReply | ((request: RecordedRequest) => MockReply | Promise<MockReply>);
const ok = (data: Record<string, unknown> = {}) => ({ status: 200, data: { result: { success: true, ...data } } });

let restore: () => void = () => {};
afterEach(() => {
  restore();
  resetToasts();
  vi.restoreAllMocks();
});

/** The main layout's menu, reduced to one link: leaving by the menu is one of the ways out. */
function Layout() {
  return (
    <>
      <nav aria-label="Главное меню">
        <Link to="/management">Каталог курсов</Link>
      </nav>
      <Outlet />
    </>
  );
}

function Elsewhere() {
  return <div data-testid="location">{useLocation().pathname}</div>;
}

/** A small fake of the constructor calls: GETs answer the current state, changes apply to it. */
function setup(path: string, routes: Record<string, Handler> = {}) {
  let modules = initialModules();
  let test = quiz;
  const mock = mockHttp({
    'GET /api/check-auth': { status: 200, data: author },
    'GET /api/courses/7': ok({ course }),
    'GET /api/courses/7/modules': () => ok({ items: modules }),
    'GET /api/courses/7/lessons/11': () =>
      ok({ lesson: { ...lessonItem(11, 'Знакомство', 0), description: '', kind: 'lesson', contents: [titleBlock] } }),
    'GET /api/courses/7/lessons/12': () =>
      ok({ lesson: { ...lessonItem(12, 'Скрипты', 1), description: '', kind: 'lesson', contents: [] } }),
    'PUT /api/courses/7/lessons/11/contents': (request) =>
      ok({
        message: 'Изменения успешно сохранены',
        contents: (request.body as { contents: LessonBlock[] }).contents.map((b, i) => ({
          ...b,
          id: typeof b.id === 'number' ? b.id : 300 + i,
          file_path: null,
          original_filename: null,
        })),
      }),
    'GET /api/courses/7/tests/40': () => ok({ test }),
    'PUT /api/courses/7/tests/40': (request) => {
      const change = request.body as Partial<ConstructorTest>;
      test = { ...test, ...change };
      modules = modules.map((m) => ({
        ...m,
        tests: m.tests.map((t) => (t.id === 40 ? { ...t, name: test.name, is_published: test.is_published } : t)),
      }));
      const message =
        change.is_published === undefined
          ? 'Название теста успешно сохранено'
          : change.is_published
            ? 'Тест опубликован'
            : 'Тест снят с публикации';
      return ok({ message, item: test });
    },
    'GET /api/admin/tests/40/questions': ok({ questions: [question] }),
    'GET /api/admin/tests/40/statistics': ok({ attempts: 0, questions: [] }),
    'POST /api/admin/tests/40/questions': (request) => {
      const sent = JSON.parse((request.body as FormData).get('questions') as string) as unknown[];
      return ok({ message: 'Вопросы теста успешно сохранены!', questions: sent.length ? [question] : [] });
    },
    'DELETE /api/courses/7/modules/2': () => {
      modules = modules.filter((m) => m.id !== 2);
      return ok({ message: 'Модуль и его уроки успешно удалены' });
    },
    'DELETE /api/courses/7/modules/1': () => {
      modules = modules.filter((m) => m.id !== 1);
      return ok({ message: 'Модуль и его уроки успешно удалены' });
    },
    ...routes,
  });
  restore = mock.restore;
  const user = userEvent.setup({ delay: null });
  const view = renderRoutes(
    [
      {
        element: <Layout />,
        children: [
          { path: '/management/constructor/:courseId', element: <ConstructorPage /> },
          { path: '/management/constructor/:courseId/settings', element: <CourseSettingsPage /> },
          { path: '/management/constructor/:courseId/test/:testId', element: <TestEditorPage /> },
          { path: '/management/constructor/:courseId/:lessonId', element: <ConstructorPage /> },
          { path: '*', element: <Elsewhere /> },
        ],
      },
    ],
    path,
  );
  return { ...view, requests: mock.requests, user };
}

const panel = () => screen.findByRole('navigation', { name: 'Структура курса' });
const crumbs = () => screen.getByRole('navigation', { name: 'Разделы курса' });
const leaveDialog = () => screen.findByRole('dialog', { name: 'Уйти со страницы?' });

describe('leaving a lesson with unsaved changes (issue 30)', { timeout: 30_000 }, () => {
  it('asks before the course tree, the breadcrumb, the menu and the back button; «Остаться» keeps the edits', async () => {
    // (coming from the catalogue, so that there is a page to go back to)
    const { user, router } = setup('/management');
    await router.navigate('/management/constructor/7/11');
    const description = await screen.findByRole('textbox', { name: 'Описание страницы' });
    fireEvent.change(description, { target: { value: 'Вводная часть' } });

    const ways: [string, () => Promise<void>][] = [
      ['the course tree', async () => user.click(within(await panel()).getByRole('link', { name: /Скрипты/ }))],
      ['the breadcrumb', async () => user.click(within(crumbs()).getByRole('link', { name: 'Настройка курса' }))],
      ['the menu', async () => user.click(screen.getByRole('link', { name: 'Каталог курсов' }))],
      ['the back button', async () => void (await router.navigate(-1))],
    ];
    for (const [way, leave] of ways) {
      await leave();
      const dialog = await leaveDialog();
      expect([way, within(dialog).getByText('На странице есть несохраненные изменения.')]).toBeTruthy();
      await user.click(within(dialog).getByRole('button', { name: 'Остаться' }));
      await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Уйти со страницы?' })).toBeNull());
      expect([way, router.state.location.pathname]).toEqual([way, '/management/constructor/7/11']);
      expect(screen.getByRole('textbox', { name: 'Описание страницы' })).toHaveValue('Вводная часть');
    }
  });

  it('«Уйти без сохранения» goes on; after saving nothing is asked', async () => {
    const { user, router } = setup('/management/constructor/7/11');
    fireEvent.change(await screen.findByRole('textbox', { name: 'Описание страницы' }), {
      target: { value: 'Вводная часть' },
    });
    await user.click(within(await panel()).getByRole('link', { name: /Скрипты/ }));
    await user.click(within(await leaveDialog()).getByRole('button', { name: 'Уйти без сохранения' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/management/constructor/7/12'));

    // back on the first lesson: save, then leave without a question
    await router.navigate('/management/constructor/7/11');
    await waitFor(() => expect(within(crumbs()).getByText('Знакомство')).toBeInTheDocument());
    fireEvent.change(await screen.findByRole('textbox', { name: 'Описание страницы' }), {
      target: { value: 'Вводная часть' },
    });
    const region = screen.getByRole('region', { name: 'Урок' });
    await user.click(within(region).getByRole('button', { name: 'Сохранить' }));
    expect(await screen.findByText('Изменения успешно сохранены')).toBeInTheDocument();
    await user.click(screen.getByRole('link', { name: 'Каталог курсов' }));
    expect(await screen.findByTestId('location')).toHaveTextContent('/management');
    expect(screen.queryByRole('dialog', { name: 'Уйти со страницы?' })).toBeNull();
  });

  it('a lesson name typed but not saved yet counts as unsaved', async () => {
    const { user, router } = setup('/management/constructor/7/11');
    const name = await screen.findByRole('textbox', { name: 'Название урока' });
    await user.type(name, ' и правила');
    await user.click(screen.getByRole('link', { name: 'Каталог курсов' }));
    await user.click(within(await leaveDialog()).getByRole('button', { name: 'Остаться' }));
    expect(router.state.location.pathname).toBe('/management/constructor/7/11');
  });

  it('a page without changes is left at once', async () => {
    const { user } = setup('/management/constructor/7/11');
    await screen.findByRole('textbox', { name: 'Описание страницы' });
    await user.click(screen.getByRole('link', { name: 'Каталог курсов' }));
    expect(await screen.findByTestId('location')).toHaveTextContent('/management');
  });
});

describe('leaving a test with unsaved changes (issue 30)', { timeout: 30_000 }, () => {
  it('asks after a question was edited; saving the test ends it', async () => {
    const { user, router } = setup('/management/constructor/7/11');
    await router.navigate('/management/constructor/7/test/40');
    const card = await screen.findByRole('region', { name: 'Вопрос 1' });
    await user.type(within(card).getByRole('textbox', { name: 'Текст вопроса 1' }), ' (город)');

    const tree = await panel();
    await user.click(within(tree).getByRole('button', { name: 'Основы' }));
    await user.click(await within(tree).findByRole('link', { name: /Знакомство/ }));
    await user.click(within(await leaveDialog()).getByRole('button', { name: 'Остаться' }));
    expect(router.state.location.pathname).toBe('/management/constructor/7/test/40');
    await router.navigate(-1);
    await user.click(within(await leaveDialog()).getByRole('button', { name: 'Остаться' }));
    expect(router.state.location.pathname).toBe('/management/constructor/7/test/40');

    await user.click(screen.getAllByRole('button', { name: 'Сохранить тест' })[0]!);
    expect(await screen.findByText('Вопросы теста успешно сохранены!')).toBeInTheDocument();
    await user.click(within(tree).getByRole('link', { name: /Знакомство/ }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/management/constructor/7/11'));
  });

  it('adding a question is a change too; «Уйти без сохранения» leaves', async () => {
    const { user, router } = setup('/management/constructor/7/test/40');
    await screen.findByRole('region', { name: 'Вопрос 1' });
    await user.click(screen.getByRole('button', { name: 'Добавить вопрос' }));
    await user.click(within(crumbs()).getByRole('link', { name: 'Конструктор' }));
    await user.click(within(await leaveDialog()).getByRole('button', { name: 'Уйти без сохранения' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/management/constructor/7/11'));
  });
});

describe('the test page (issue 30)', { timeout: 30_000 }, () => {
  it('publishes and unpublishes the test with its switch', async () => {
    const { user, requests } = setup('/management/constructor/7/test/40');
    const region = await screen.findByRole('region', { name: 'Тест' });
    const status = within(region).getByRole('switch', { name: 'Статус теста' });
    expect(status).not.toBeChecked();
    expect(within(region).getByText('Не опубликован')).toBeInTheDocument();

    await user.click(status);
    expect(await screen.findByText('Тест опубликован')).toBeInTheDocument();
    expect(status).toBeChecked();
    expect(within(region).getByText('Опубликован')).toBeInTheDocument();
    // the course tree shows it as well
    const tree = await panel();
    await waitFor(() =>
      expect(within(within(tree).getByRole('link', { name: /Итоговый тест/ })).getByRole('img')).toHaveAccessibleName(
        'Опубликован',
      ),
    );

    await user.click(status);
    expect(await screen.findByText('Тест снят с публикации')).toBeInTheDocument();
    expect(status).not.toBeChecked();
    const puts = requests.filter((r) => r.method === 'PUT' && r.url === '/api/courses/7/tests/40');
    expect(puts.map((r) => r.body)).toEqual([
      { name: 'Итоговый тест', is_published: true },
      { name: 'Итоговый тест', is_published: false },
    ]);
  });

  it('a refused switch goes back with «Ошибка при изменении статуса публикации»', async () => {
    const { user } = setup('/management/constructor/7/test/40', {
      'PUT /api/courses/7/tests/40': { status: 500, data: {} },
    });
    const region = await screen.findByRole('region', { name: 'Тест' });
    const status = within(region).getByRole('switch', { name: 'Статус теста' });
    await user.click(status);
    expect(await screen.findByText('Ошибка при изменении статуса публикации')).toBeInTheDocument();
    expect(status).not.toBeChecked();
  });

  it('deleting the module that holds the open test leaves for the course constructor', async () => {
    const { user, router } = setup('/management/constructor/7/test/40');
    const tree = await panel();
    // the open test is the current item of the tree
    expect(within(tree).getByRole('link', { name: /Итоговый тест/ })).toHaveAttribute('aria-current', 'page');
    // an unsaved change does not hold it back: the test is gone
    await user.click(await screen.findByRole('button', { name: 'Добавить вопрос' }));
    await user.click(within(tree).getByRole('button', { name: 'Действия с модулем «Проверка»' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Удалить модуль' }));
    await user.click(
      within(await screen.findByRole('dialog', { name: 'Удаление модуля' })).getByRole('button', { name: 'Удалить' }),
    );
    expect(await screen.findByText('Модуль и его уроки успешно удалены')).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.pathname).toBe('/management/constructor/7/11'));
    expect(screen.queryByRole('dialog', { name: 'Уйти со страницы?' })).toBeNull();
  });

  it('deleting the module that holds the open lesson leaves it too, without asking', async () => {
    const { user, router } = setup('/management/constructor/7/11');
    fireEvent.change(await screen.findByRole('textbox', { name: 'Описание страницы' }), {
      target: { value: 'Вводная часть' },
    });
    const tree = await panel();
    await user.click(within(tree).getByRole('button', { name: 'Действия с модулем «Основы»' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Удалить модуль' }));
    await user.click(
      within(await screen.findByRole('dialog', { name: 'Удаление модуля' })).getByRole('button', { name: 'Удалить' }),
    );
    await waitFor(() => expect(router.state.location.pathname).toBe('/management/constructor/7'));
    expect(screen.queryByRole('dialog', { name: 'Уйти со страницы?' })).toBeNull();
  });
});

describe('the breadcrumb names the page (issue 30)', { timeout: 30_000 }, () => {
  it('ends with the lesson’s, the test’s name or «Настройка курса»', async () => {
    const { router } = setup('/management/constructor/7/11');
    await screen.findByRole('region', { name: 'Урок' });
    await waitFor(() => expect(within(crumbs()).getByText('Знакомство')).toHaveAttribute('aria-current', 'page'));
    expect(within(crumbs()).getByRole('link', { name: 'Конструктор' })).toHaveAttribute(
      'href',
      '/management/constructor/7',
    );
    expect(within(crumbs()).getByRole('link', { name: 'Настройка курса' })).toHaveAttribute(
      'href',
      '/management/constructor/7/settings',
    );

    await router.navigate('/management/constructor/7/test/40');
    await screen.findByRole('region', { name: 'Тест' });
    await waitFor(() => expect(within(crumbs()).getByText('Итоговый тест')).toHaveAttribute('aria-current', 'page'));

    await router.navigate('/management/constructor/7/settings');
    await waitFor(() =>
      expect(within(crumbs()).getByRole('link', { name: 'Настройка курса' })).toHaveAttribute('aria-current', 'page'),
    );
  });
});
