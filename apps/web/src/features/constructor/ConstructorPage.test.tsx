import type { AuthUser, ConstructorModule, LessonBlock, ModuleLesson } from '@lms/contract';
import { configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useLocation } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockHttp, type MockReply, type RecordedRequest } from '../../test/http';
import { renderRoutes, resetToasts } from '../../test/render';
import ConstructorPage from './ConstructorPage';
import { authorUser, constructorCourse } from '../../test/fixtures';

// The screens make a few calls in a row; on a busy machine they take longer than the 1 s default.
configure({ asyncUtilTimeout: 5000 });

const author = authorUser;
const manager: AuthUser = {
  ...author,
  role: 'manager',
  roles_ru: 'Руководитель',
  permissions: ['learning', 'profile'],
};

const course = constructorCourse();

const lesson = (id: number, name: string, sort_order: number, module_id = 1): ModuleLesson => ({
  id,
  name,
  module_id,
  is_published: false,
  sort_order,
  type: 'lesson',
});

function initialModules(): ConstructorModule[] {
  const base = { course_id: 7, status: 'process' as const, is_published: false, published_at: null, tests: [] };
  return [
    { ...base, id: 1, name: 'Основы', sort_order: 0, lessons: [lesson(11, 'Знакомство', 0), lesson(12, 'Скрипты', 1)] },
    { ...base, id: 2, name: 'Практика', sort_order: 1, lessons: [] },
  ];
}

type Handler = MockReply | ((request: RecordedRequest) => MockReply | Promise<MockReply>);
const ok = (data: Record<string, unknown> = {}) => ({ status: 200, data: { result: { success: true, ...data } } });

let restore: () => void = () => {};
afterEach(() => {
  restore();
  resetToasts();
  vi.restoreAllMocks();
});

function LocationProbe() {
  return <div data-testid="location">{useLocation().pathname}</div>;
}

/** A small fake of the constructor calls: GETs answer the current state, changes apply to it. */
function setup(path: string, opts: { user?: AuthUser; routes?: Record<string, Handler> } = {}) {
  let modules = initialModules();
  let contents: LessonBlock[] = [
    { id: 100, type: 'title', content: 'Заголовок', file_path: null, original_filename: null, sort_order: -2 },
    {
      id: 101,
      type: 'button',
      content: [{ title: 'Кнопка', url: '' }],
      file_path: null,
      original_filename: null,
      sort_order: 0,
    },
  ];
  let nextId = 200;
  const mock = mockHttp({
    'GET /api/check-auth': { status: 200, data: opts.user ?? author },
    'GET /api/courses/7': ok({ course }),
    'GET /api/courses/7/modules': () => ok({ items: modules }),
    'GET /api/courses/7/lessons/11': () =>
      ok({ lesson: { ...lesson(11, 'Знакомство', 0), description: '', kind: 'lesson', contents } }),
    'GET /api/courses/7/lessons/12': () =>
      ok({ lesson: { ...lesson(12, 'Скрипты', 1), description: '', kind: 'lesson', contents: [] } }),
    'PUT /api/courses/7/lessons/11/contents': (request) => {
      const sent = (request.body as { contents: (LessonBlock & { id: number | string })[] }).contents;
      contents = sent.map((b) => ({ ...b, id: typeof b.id === 'number' ? b.id : nextId++ }) as LessonBlock);
      return ok({ message: 'Изменения успешно сохранены', contents });
    },
    'POST /api/courses/modules': (request) => {
      const { name } = request.body as { name: string };
      const item = { ...initialModules()[1]!, id: 3, name, sort_order: modules.length };
      modules = [...modules, item];
      return { status: 201, data: { result: { success: true, message: 'Модуль успешно создан', item } } };
    },
    'PUT /api/courses/7/modules/1/items/sort': (request) => {
      const { items } = request.body as { items: { id: number; sort_order: number }[] };
      modules = modules.map((m) =>
        m.id === 1
          ? {
              ...m,
              lessons: m.lessons.map((l) => ({ ...l, sort_order: items.find((i) => i.id === l.id)!.sort_order })),
            }
          : m,
      );
      return ok({ message: 'Порядок элементов успешно обновлен' });
    },
    ...opts.routes,
  });
  restore = mock.restore;
  const user = userEvent.setup({ delay: null });
  const view = renderRoutes(
    [
      { path: '/management/constructor/:courseId', element: <ConstructorPage /> },
      { path: '/management/constructor/:courseId/:lessonId', element: <ConstructorPage /> },
      { path: '*', element: <LocationProbe /> },
    ],
    path,
  );
  return { ...view, requests: mock.requests, user };
}

describe('ConstructorPage', { timeout: 20_000 }, () => {
  it('shows «Доступ запрещен» to a user without the constructor, and asks for nothing', async () => {
    const { requests } = setup('/management/constructor/7', { user: manager });
    expect(await screen.findByRole('heading', { name: 'Доступ запрещен' })).toBeInTheDocument();
    expect(requests.filter((r) => r.url.startsWith('/api/courses'))).toEqual([]);
  });

  it('a missing course: «Курс не найден» once (no toasts), with the way to the list of courses (issue 30)', async () => {
    const gone = { status: 404, data: { result: { success: false, message: 'Курс не найден' } } };
    setup('/management/constructor/7', { routes: { 'GET /api/courses/7': gone, 'GET /api/courses/7/modules': gone } });
    expect(await screen.findByRole('heading', { level: 1, name: 'Курс не найден' })).toBeInTheDocument();
    expect(screen.getAllByText(/Курс не найден/)).toHaveLength(1);
    expect(screen.queryByRole('button', { name: 'Повторить' })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'К списку курсов' })).toHaveAttribute('href', '/management');
  });

  it('a missing lesson: «Урок не найден» once in the lesson pane, with the way back to the course', async () => {
    setup('/management/constructor/7/99', {
      routes: {
        'GET /api/courses/7/lessons/99': {
          status: 404,
          data: { result: { success: false, message: 'Урок не найден' } },
        },
      },
    });
    expect(await screen.findByRole('heading', { name: 'Урок не найден' })).toBeInTheDocument();
    expect(screen.getAllByText(/Урок не найден/)).toHaveLength(1);
    expect(screen.getByRole('link', { name: 'К курсу' })).toHaveAttribute('href', '/management/constructor/7');
  });

  it('shows «Загрузка...», then replaces the address with the first lesson of the first module', async () => {
    const { router } = setup('/management/constructor/7');
    expect(await screen.findByText('Загрузка...')).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.pathname).toBe('/management/constructor/7/11'));
    expect(router.state.historyAction).toBe('REPLACE');
    const region = await screen.findByRole('region', { name: 'Урок' });
    expect(within(region).getByRole('textbox', { name: 'Название урока' })).toHaveValue('Знакомство');
    expect(screen.getByRole('link', { name: 'Конструктор' })).toHaveAttribute('href', '/management/constructor/7');
    expect(screen.getByRole('link', { name: 'Настройка курса' })).toHaveAttribute(
      'href',
      '/management/constructor/7/settings',
    );
  });

  it('saves every block: disabled until a change, «Сохранение...» while saving, then the saved ids', async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const { user, requests } = setup('/management/constructor/7/11');
    const region = await screen.findByRole('region', { name: 'Урок' });
    const save = within(region).getByRole('button', { name: 'Сохранить' });
    expect(save).toBeDisabled();

    await user.click(within(region).getByRole('button', { name: 'Удалить урок' }));
    await user.click(screen.getByRole('button', { name: 'Отмена' }));

    fireEvent.change(screen.getByRole('textbox', { name: 'Описание страницы' }), {
      target: { value: 'Вводная часть' },
    });
    expect(save).toBeEnabled();
    // a new block, being edited
    await user.click(screen.getByRole('button', { name: 'Добавить блок' }));
    await user.click(screen.getByRole('menuitem', { name: 'Кнопка' }));
    // (the wide and the narrow form of the toggle; CSS is off in tests)
    expect(screen.getAllByRole('button', { name: 'Готово' }).length).toBeGreaterThan(0);

    restore();
    let seen: RecordedRequest | undefined;
    const slow = mockHttp({
      'GET /api/courses/7/modules': ok({ items: initialModules() }),
      'PUT /api/courses/7/lessons/11/contents': async (request) => {
        seen = request;
        await gate;
        const sent = (request.body as { contents: { id: number | string }[] }).contents;
        return ok({
          message: 'Изменения успешно сохранены',
          contents: sent.map((b, i) => ({
            ...b,
            id: typeof b.id === 'number' ? b.id : 300 + i,
            file_path: null,
            original_filename: null,
          })),
        });
      },
    });
    restore = slow.restore;
    await user.click(save);
    expect(await within(region).findByRole('button', { name: 'Сохранение...' })).toBeDisabled();
    // blocks being edited were closed before saving
    expect(screen.queryByRole('button', { name: 'Готово' })).toBeNull();
    const sent = (seen?.body as { contents: { id: number | string; type: string; sort_order: number }[] }).contents;
    expect(sent.map((b) => [b.type, b.sort_order])).toEqual([
      ['title', -2],
      ['description', -1],
      ['button', 0],
      ['button', 1],
    ]);
    expect(sent[0]?.id).toBe(100);
    expect(String(sent[1]?.id)).toMatch(/^tmp-/);
    expect(String(sent[3]?.id)).toMatch(/^tmp-/);
    release();
    expect(await screen.findByText('Изменения успешно сохранены')).toBeInTheDocument();
    expect(within(region).getByRole('button', { name: 'Сохранить' })).toBeDisabled();
    expect(requests.length).toBeGreaterThan(0);
  });

  it('publish-all puts each unpublished item with its name and counts the results', async () => {
    const puts: RecordedRequest[] = [];
    const { user } = setup('/management/constructor/7/11', {
      routes: {
        'PUT /api/courses/7/lessons/11': (request) => {
          puts.push(request);
          return ok({ message: 'Урок опубликован', item: { ...lesson(11, 'Знакомство', 0), is_published: true } });
        },
        'PUT /api/courses/7/lessons/12': (request) => {
          puts.push(request);
          return { status: 500, data: {} };
        },
      },
    });
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const panel = await screen.findByRole('navigation', { name: 'Структура курса' });
    await user.click(within(panel).getByRole('button', { name: 'Опубликовать все' }));
    expect(await screen.findByText('Опубликовано: 1 элемент')).toBeInTheDocument();
    expect(await screen.findByText('Ошибка при публикации урока «Скрипты»')).toBeInTheDocument();
    expect(puts.map((r) => r.body)).toEqual([
      { name: 'Знакомство', is_published: true },
      { name: 'Скрипты', is_published: true },
    ]);
  });

  it('creates a module: an empty name is refused, then the module is added', async () => {
    const { user, requests } = setup('/management/constructor/7/11');
    const panel = await screen.findByRole('navigation', { name: 'Структура курса' });
    await user.click(within(panel).getByRole('button', { name: 'Добавить модуль' }));
    const dialog = await screen.findByRole('dialog', { name: 'Создание нового модуля' });
    await user.click(within(dialog).getByRole('button', { name: 'Создать модуль' }));
    expect(within(dialog).getByText('Поле не может быть пустым')).toBeInTheDocument();
    await user.type(within(dialog).getByRole('textbox', { name: 'Название модуля' }), 'Итоги');
    await user.click(within(dialog).getByRole('button', { name: 'Создать модуль' }));
    expect(await screen.findByText('Модуль успешно создан')).toBeInTheDocument();
    expect(requests.find((r) => r.method === 'POST' && r.url === '/api/courses/modules')?.body).toEqual({
      name: 'Итоги',
      course_id: 7,
      sort_order: 2,
    });
    expect(await within(panel).findByRole('group', { name: 'Итоги' })).toBeInTheDocument();
  });

  it('moves a lesson with the arrows: the first cannot go up, the last cannot go down', async () => {
    const { user, requests } = setup('/management/constructor/7/11');
    const panel = await screen.findByRole('navigation', { name: 'Структура курса' });
    expect(within(panel).getByRole('button', { name: 'Переместить «Знакомство» выше' })).toBeDisabled();
    expect(within(panel).getByRole('button', { name: 'Переместить «Скрипты» ниже' })).toBeDisabled();
    expect(within(panel).getByRole('button', { name: 'Переместить «Основы» выше' })).toBeDisabled();
    expect(within(panel).getByRole('button', { name: 'Переместить «Практика» ниже' })).toBeDisabled();
    await user.click(within(panel).getByRole('button', { name: 'Переместить «Знакомство» ниже' }));
    expect(await screen.findByText('Порядок элементов успешно обновлен')).toBeInTheDocument();
    expect(requests.find((r) => r.url === '/api/courses/7/modules/1/items/sort')?.body).toEqual({
      items: [
        { id: 12, type: 'lesson', sort_order: 0 },
        { id: 11, type: 'lesson', sort_order: 1 },
      ],
    });
    await waitFor(() =>
      expect(within(panel).getByRole('button', { name: 'Переместить «Скрипты» выше' })).toBeDisabled(),
    );
  });

  it('a failed sort shows «Ошибка при сортировке модулей»', async () => {
    const { user } = setup('/management/constructor/7/11', {
      routes: { 'PUT /api/courses/7/modules/sort': { status: 500, data: {} } },
    });
    const panel = await screen.findByRole('navigation', { name: 'Структура курса' });
    await user.click(within(panel).getByRole('button', { name: 'Переместить «Практика» выше' }));
    expect(await screen.findByText('Ошибка при сортировке модулей')).toBeInTheDocument();
  });

  it('the lesson switch sends the name with is_published and shows the answer’s message', async () => {
    const { user } = setup('/management/constructor/7/11', {
      routes: {
        'PUT /api/courses/7/lessons/11': (request) =>
          ok({ message: 'Урок опубликован', item: { ...lesson(11, 'Знакомство', 0), ...(request.body as object) } }),
      },
    });
    const region = await screen.findByRole('region', { name: 'Урок' });
    await user.click(within(region).getByRole('switch', { name: 'Статус урока' }));
    expect(await screen.findByText('Урок опубликован')).toBeInTheDocument();
    expect(within(region).getByText('Опубликован')).toBeInTheDocument();
  });

  it('deleting the lesson asks first, then goes to /management', async () => {
    const { user } = setup('/management/constructor/7/11', {
      routes: { 'DELETE /api/courses/lessons/11': ok({ message: 'Урок успешно удален' }) },
    });
    const region = await screen.findByRole('region', { name: 'Урок' });
    await user.click(within(region).getByRole('button', { name: 'Удалить урок' }));
    const dialog = await screen.findByRole('dialog', { name: 'Удаление урока' });
    await user.click(within(dialog).getByRole('button', { name: 'Удалить' }));
    expect(await screen.findByText('Урок успешно удален')).toBeInTheDocument();
    expect(await screen.findByTestId('location')).toHaveTextContent('/management');
  });
});
