import type { AuthUser, CatalogueCategory, CatalogueCourse } from '@lms/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { authorUser, courseCard } from '../../test/fixtures';
import { mockHttp, type MockReply, type RecordedRequest } from '../../test/http';
import { renderAt, resetToasts } from '../../test/render';
import CataloguePage from './CataloguePage';
import { setupUser } from '../../test/user';

const author = authorUser;
const learner: AuthUser = { ...author, role: 'learner', roles_ru: 'Ученик', permissions: ['learning', 'profile'] };

function course(id: number, name: string, over: Partial<CatalogueCourse> = {}): CatalogueCourse {
  return {
    ...courseCard({ id, name, url: `/management/constructor/${id}`, groups: 1, students: 3 }),
    description: '',
    is_published: true,
    category_id: null,
    lessons: { total: 2, completed: 0 },
    test: { total: 1, completed: 0 },
    ...over,
  };
}

function initialCatalogue(): CatalogueCategory[] {
  return [
    {
      id: 1,
      name: 'Обязательное',
      sort_order: 0,
      items: [
        course(11, 'Охрана труда', { description: 'Пожарная безопасность и первая помощь', category_id: 1 }),
        course(12, 'Информационная безопасность', { is_published: false, category_id: 1 }),
      ],
    },
    { id: 2, name: 'Продукты', sort_order: 1, items: [course(21, 'Бизнес-Онлайн', { category_id: 2 })] },
    { id: 3, name: 'Навыки', sort_order: 2, items: [] },
    { id: -1, name: 'Без категории', sort_order: 3, items: [course(41, 'Работа с CRM', { progress: 50 })] },
  ];
}

type Handler = MockReply | ((request: RecordedRequest) => MockReply);
const ok = (data: Record<string, unknown> = {}) => ({ status: 200, data: { result: { success: true, ...data } } });
const fail = (status: number, message?: string) => ({
  status,
  data: { result: { success: false, ...(message ? { message } : {}) } },
});

let restore: () => void = () => {};
afterEach(() => {
  restore();
  resetToasts();
});

/** A small fake of the catalogue calls: GET answers the current state, the changes apply to it. */
function setup(opts: { user?: AuthUser; routes?: Record<string, Handler> } = {}) {
  let state = initialCatalogue();
  const mock = mockHttp({
    'GET /api/check-auth': { status: 200, data: opts.user ?? author },
    'GET /api/courses': () => ok({ items: state }),
    'POST /api/courses/categories/update': (request) => {
      const { categories } = request.body as { categories: { id: number; name: string; sort_order: number }[] };
      const byId = new Map(state.map((c) => [c.id, c]));
      state = [
        ...categories.map((c) => ({ ...byId.get(c.id)!, name: c.name, sort_order: c.sort_order })),
        ...state.filter((c) => c.id === -1),
      ];
      return ok({ message: 'Изменения успешно сохранены' });
    },
    'POST /api/courses/categories': (request) => {
      const { name } = request.body as { name: string };
      const item = { id: 9, name, sort_order: 3 };
      state = [...state.filter((c) => c.id !== -1), { ...item, items: [] }, ...state.filter((c) => c.id === -1)];
      return { status: 201, data: { result: { success: true, message: 'Категория успешно создана', item } } };
    },
    ...Object.fromEntries(
      [1, 2, 3].flatMap((id) => [
        [
          `PUT /api/courses/categories/${id}`,
          (request: RecordedRequest) => {
            const { name } = request.body as { name: string };
            state = state.map((c) => (c.id === id ? { ...c, name } : c));
            return ok({ item: { id, name, sort_order: 0 } });
          },
        ],
        [
          `DELETE /api/courses/categories/${id}`,
          () => {
            state = state.filter((c) => c.id !== id);
            return ok({ message: 'Категория успешно удалена' });
          },
        ],
      ]),
    ),
    ...opts.routes,
  });
  restore = mock.restore;
  const view = renderAt(<CataloguePage />, '/management');
  return { ...view, requests: mock.requests, ue: setupUser() };
}

const sent = (requests: RecordedRequest[], method: string, url: string) =>
  requests.filter((r) => r.method === method && r.url === url);
/** A toolbar button once the catalogue is there: until then the buttons are disabled and ignore clicks. */
async function toolbarButton(name: string) {
  await screen.findByText('Охрана труда');
  return screen.getByRole('button', { name });
}
const sectionNames = () =>
  screen.getAllByTestId('catalogue-category').map((section) => section.getAttribute('aria-label'));

describe('catalogue: access and list', () => {
  it("shows 'Доступ запрещен' without catalogue.manage and loads nothing", async () => {
    const { requests } = setup({ user: learner });
    expect(await screen.findByRole('heading', { name: 'Доступ запрещен' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Создать курс' })).not.toBeInTheDocument();
    expect(sent(requests, 'GET', '/api/courses')).toHaveLength(0);
  });

  it('greets the user and lists categories (-1 last, empty ones too) with course cards', async () => {
    setup();
    expect(await screen.findByRole('heading', { level: 1, name: 'Елена, добрый день!' })).toBeInTheDocument();
    await screen.findByText('Охрана труда');
    expect(sectionNames()).toEqual(['Обязательное', 'Продукты', 'Навыки', 'Без категории']);

    const safety = screen.getByText('Охрана труда').closest('a')!;
    expect(safety).toHaveAttribute('href', '/management/constructor/11');
    expect(within(safety).getByText('Опубликован')).toBeInTheDocument();
    expect(safety).toHaveTextContent('Учебные группы: 1');
    expect(safety).toHaveTextContent('Ученики: 3');
    expect(within(safety).getByText('0/2 лекций')).toBeInTheDocument();
    expect(within(safety).getByText('0/1 теста')).toBeInTheDocument();
    const infosec = screen.getByText('Информационная безопасность').closest('a')!;
    expect(within(infosec).getByText('Не опубликован')).toBeInTheDocument();
    expect(within(screen.getByText('Работа с CRM').closest('a')!).getByText('50%')).toBeInTheDocument();

    for (const name of ['Настроить каталог', 'Создать курс', 'Создать категорию']) {
      expect(screen.getByRole('button', { name })).toBeEnabled();
    }
    expect(screen.queryByRole('button', { name: 'Сохранить изменения' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Создать курс в категории «Навыки»' })).toBeInTheDocument();
  });

  it('searches names and descriptions; no match gives the not-found text', async () => {
    const { ue } = setup();
    await screen.findByText('Охрана труда');
    const search = screen.getByRole('textbox', { name: 'Поиск по курсам' });
    // The query is pasted: what is tested is the filter, not each keystroke redrawing the page.
    const searchFor = async (query: string) => {
      await ue.clear(search);
      await ue.paste(query);
    };
    await searchFor('первая ПОМОЩЬ');
    expect(screen.getByText('Охрана труда')).toBeInTheDocument();
    expect(screen.queryByText('Информационная безопасность')).not.toBeInTheDocument();
    expect(sectionNames()).toEqual(['Обязательное']);
    await searchFor('crm ');
    expect(sectionNames()).toEqual(['Без категории']);
    await searchFor('Астрономия');
    expect(screen.getByText('По запросу "Астрономия" ничего не найдено')).toBeInTheDocument();
  });

  it("shows 'Ошибка при загрузке курсов' when the list fails", async () => {
    setup({ routes: { 'GET /api/courses': fail(500) } });
    expect(await screen.findAllByText('Ошибка при загрузке курсов')).not.toHaveLength(0);
    expect(screen.getByRole('button', { name: 'Повторить' })).toBeInTheDocument();
  });
});

describe('catalogue: edit mode', () => {
  it('reorders and renames categories and saves them on "Сохранить изменения"', async () => {
    const { ue, requests } = setup();
    await screen.findByText('Охрана труда');
    await ue.click(screen.getByRole('button', { name: 'Настроить каталог' }));

    expect(screen.getByRole('button', { name: 'Создать курс' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Сохранить изменения' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Переместить «Обязательное» выше' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Переместить «Навыки» ниже' })).toBeDisabled();
    const loose = screen.getByRole('region', { name: 'Без категории' });
    expect(within(loose).queryByRole('button', { name: /Переместить/ })).not.toBeInTheDocument();
    expect(within(loose).queryByRole('textbox')).not.toBeInTheDocument();

    await ue.click(screen.getByRole('button', { name: 'Переместить «Навыки» выше' }));
    await ue.click(screen.getByRole('button', { name: 'Переместить «Навыки» выше' }));
    await ue.click(screen.getByRole('button', { name: 'Переместить «Продукты» ниже' }));
    expect(sectionNames()).toEqual(['Навыки', 'Обязательное', 'Продукты', 'Без категории']);
    const name = screen.getByRole('textbox', { name: 'Название категории «Продукты»' });
    await ue.clear(name);
    await ue.paste(' Продукты компании ');

    await ue.click(screen.getByRole('button', { name: 'Сохранить изменения' }));
    expect(await screen.findByText('Изменения успешно сохранены')).toBeInTheDocument();
    expect(sent(requests, 'POST', '/api/courses/categories/update').map((r) => r.body)).toEqual([
      {
        categories: [
          { id: 3, name: 'Навыки', sort_order: 0 },
          { id: 1, name: 'Обязательное', sort_order: 1 },
          { id: 2, name: 'Продукты компании', sort_order: 2 },
        ],
      },
    ]);
    expect(screen.queryByRole('button', { name: 'Сохранить изменения' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Создать курс' })).toBeEnabled();
    await waitFor(() =>
      expect(sectionNames()).toEqual(['Навыки', 'Обязательное', 'Продукты компании', 'Без категории']),
    );
  });

  it('also saves when the mode is toggled off, and sends nothing when nothing changed', async () => {
    const { ue, requests } = setup();
    await screen.findByText('Охрана труда');
    await ue.click(screen.getByRole('button', { name: 'Настроить каталог' }));
    await ue.click(screen.getByRole('button', { name: 'Настроить каталог' }));
    expect(screen.queryByRole('button', { name: 'Сохранить изменения' })).not.toBeInTheDocument();
    expect(sent(requests, 'POST', '/api/courses/categories/update')).toHaveLength(0);

    await ue.click(screen.getByRole('button', { name: 'Настроить каталог' }));
    await ue.click(screen.getByRole('button', { name: 'Переместить «Обязательное» ниже' }));
    await ue.click(screen.getByRole('button', { name: 'Настроить каталог' }));
    expect(await screen.findByText('Изменения успешно сохранены')).toBeInTheDocument();
    expect(sent(requests, 'POST', '/api/courses/categories/update')[0]?.body).toEqual({
      categories: [
        { id: 2, name: 'Продукты', sort_order: 0 },
        { id: 1, name: 'Обязательное', sort_order: 1 },
        { id: 3, name: 'Навыки', sort_order: 2 },
      ],
    });
  });

  it('saves the unsaved order when the page is left in edit mode', async () => {
    const { ue, requests, unmount } = setup();
    await screen.findByText('Охрана труда');
    await ue.click(screen.getByRole('button', { name: 'Настроить каталог' }));
    await ue.click(screen.getByRole('button', { name: 'Переместить «Обязательное» ниже' }));
    unmount();
    await waitFor(() => expect(sent(requests, 'POST', '/api/courses/categories/update')).toHaveLength(1));
    expect(sent(requests, 'POST', '/api/courses/categories/update')[0]?.body).toEqual({
      categories: [
        { id: 2, name: 'Продукты', sort_order: 0 },
        { id: 1, name: 'Обязательное', sort_order: 1 },
        { id: 3, name: 'Навыки', sort_order: 2 },
      ],
    });
  });

  it('keeps the mode open on a failed save, and refuses an empty name', async () => {
    const { ue, requests } = setup({ routes: { 'POST /api/courses/categories/update': fail(500) } });
    await screen.findByText('Охрана труда');
    await ue.click(screen.getByRole('button', { name: 'Настроить каталог' }));

    await ue.clear(screen.getByRole('textbox', { name: 'Название категории «Навыки»' }));
    await ue.click(screen.getByRole('button', { name: 'Сохранить изменения' }));
    expect(screen.getByText('Поле не может быть пустым')).toBeInTheDocument();
    expect(sent(requests, 'POST', '/api/courses/categories/update')).toHaveLength(0);

    await ue.type(screen.getByRole('textbox', { name: 'Название категории «Навыки»' }), 'Soft skills');
    await ue.click(screen.getByRole('button', { name: 'Сохранить изменения' }));
    expect(await screen.findByText('Ошибка при сохранении изменений')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Сохранить изменения' })).toBeInTheDocument();
  });

  it('deletes a category after a confirmation that warns about its courses', async () => {
    const { ue, requests } = setup();
    await screen.findByText('Охрана труда');
    await ue.click(screen.getByRole('button', { name: 'Настроить каталог' }));
    await ue.click(screen.getByRole('button', { name: 'Удалить категорию «Обязательное»' }));

    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('Удалить категорию «Обязательное»?');
    expect(dialog).toHaveTextContent('Все курсы этой категории тоже будут удалены.');
    await ue.click(within(dialog).getByRole('button', { name: 'Удалить' }));

    expect(await screen.findByText('Категория успешно удалена')).toBeInTheDocument();
    expect(sent(requests, 'DELETE', '/api/courses/categories/1')).toHaveLength(1);
    expect(sectionNames()).toEqual(['Продукты', 'Навыки', 'Без категории']);
  });

  it("shows 'Ошибка при удалении категории' when deleting fails", async () => {
    const { ue } = setup({ routes: { 'DELETE /api/courses/categories/2': fail(500) } });
    await screen.findByText('Охрана труда');
    await ue.click(screen.getByRole('button', { name: 'Настроить каталог' }));
    await ue.click(screen.getByRole('button', { name: 'Удалить категорию «Продукты»' }));
    await ue.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Удалить' }));
    expect(await screen.findByText('Ошибка при удалении категории')).toBeInTheDocument();
    expect(sectionNames()).toContain('Продукты');
  });
});

describe('catalogue: inline rename outside edit mode', () => {
  it('saves on Enter', async () => {
    const { ue, requests } = setup();
    await ue.click(await screen.findByRole('button', { name: 'Продукты' }));
    const input = screen.getByRole('textbox', { name: 'Название категории' });
    expect(input).toHaveFocus();
    await ue.clear(input);
    await ue.type(input, 'Наши продукты{Enter}');
    expect(screen.queryByRole('textbox', { name: 'Название категории' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Наши продукты' })).toBeInTheDocument();
    await waitFor(() => expect(sent(requests, 'PUT', '/api/courses/categories/2')).toHaveLength(1));
    expect(sent(requests, 'PUT', '/api/courses/categories/2')[0]?.body).toEqual({ name: 'Наши продукты' });
  });

  it('saves on blur', async () => {
    const { ue, requests } = setup();
    await ue.click(await screen.findByRole('button', { name: 'Навыки' }));
    await ue.type(screen.getByRole('textbox', { name: 'Название категории' }), ' и умения');
    await ue.click(screen.getByRole('heading', { level: 1 }));
    await waitFor(() => expect(sent(requests, 'PUT', '/api/courses/categories/3')).toHaveLength(1));
    expect(sent(requests, 'PUT', '/api/courses/categories/3')[0]?.body).toEqual({ name: 'Навыки и умения' });
    expect(screen.getByRole('button', { name: 'Навыки и умения' })).toBeInTheDocument();
  });

  it('cancels on Escape', async () => {
    const { ue, requests } = setup();
    await ue.click(await screen.findByRole('button', { name: 'Продукты' }));
    await ue.type(screen.getByRole('textbox', { name: 'Название категории' }), ' 2{Escape}');
    expect(screen.getByRole('button', { name: 'Продукты' })).toBeInTheDocument();
    expect(requests.filter((r) => r.method === 'PUT')).toHaveLength(0);
  });

  it('restores the old name when saving fails', async () => {
    const { ue } = setup({ routes: { 'PUT /api/courses/categories/2': fail(500) } });
    await ue.click(await screen.findByRole('button', { name: 'Продукты' }));
    const input = screen.getByRole('textbox', { name: 'Название категории' });
    await ue.clear(input);
    await ue.type(input, 'Другое{Enter}');
    expect(await screen.findByText('Ошибка при обновлении названия категории')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Продукты' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Другое' })).not.toBeInTheDocument();
  });

  it('does not offer renaming the uncategorised group', async () => {
    setup();
    await screen.findByText('Работа с CRM');
    expect(screen.getByRole('heading', { name: 'Без категории' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Без категории' })).not.toBeInTheDocument();
  });
});

describe('catalogue: name dialog', () => {
  it('needs a name, then creates the course and opens its constructor', async () => {
    const { ue, requests } = setup({
      routes: {
        'POST /api/courses': {
          status: 201,
          data: {
            result: { success: true, message: 'Курс успешно создан', item: { id: 55, name: 'Новый', category_id: 3 } },
          },
        },
      },
    });
    await ue.click(await screen.findByRole('button', { name: 'Создать курс в категории «Навыки»' }));
    const dialog = await screen.findByRole('dialog', { name: 'Новый курс' });
    expect(within(dialog).getByRole('combobox', { name: 'Категория' })).toHaveValue('3');

    await ue.click(within(dialog).getByRole('button', { name: 'Создать' }));
    expect(within(dialog).getByText('Поле не может быть пустым')).toBeInTheDocument();
    await ue.type(within(dialog).getByRole('textbox', { name: 'Название курса' }), '   ');
    await ue.click(within(dialog).getByRole('button', { name: 'Создать' }));
    expect(within(dialog).getByText('Поле не может быть пустым')).toBeInTheDocument();
    expect(sent(requests, 'POST', '/api/courses')).toHaveLength(0);

    await ue.type(within(dialog).getByRole('textbox', { name: 'Название курса' }), ' Новый курс продаж ');
    await ue.click(within(dialog).getByRole('button', { name: 'Создать' }));
    expect(await screen.findByTestId('location')).toHaveTextContent('/management/constructor/55');
    expect(sent(requests, 'POST', '/api/courses')[0]?.body).toEqual({ name: 'Новый курс продаж', category_id: 3 });
    expect(await screen.findByText('Курс успешно создан')).toBeInTheDocument();
  });

  it('creates a course without a category from the top button', async () => {
    const { ue, requests } = setup({
      routes: {
        'POST /api/courses': {
          status: 201,
          data: {
            result: { success: true, message: 'Курс успешно создан', item: { id: 56, name: 'X', category_id: null } },
          },
        },
      },
    });
    await ue.click(await toolbarButton('Создать курс'));
    const dialog = await screen.findByRole('dialog', { name: 'Новый курс' });
    expect(within(dialog).getByRole('combobox', { name: 'Категория' })).toHaveValue('-1');
    await ue.type(within(dialog).getByRole('textbox', { name: 'Название курса' }), 'X{Enter}');
    expect(await screen.findByTestId('location')).toHaveTextContent('/management/constructor/56');
    expect(sent(requests, 'POST', '/api/courses')[0]?.body).toEqual({ name: 'X' });
  });

  it("shows 'Введите другое название' for a duplicate and other 422 messages as received", async () => {
    let reply: MockReply = fail(422, 'Введите другое название');
    const { ue } = setup({ routes: { 'POST /api/courses/categories': () => reply } });
    await ue.click(await toolbarButton('Создать категорию'));
    const dialog = await screen.findByRole('dialog', { name: 'Новая категория' });
    expect(within(dialog).queryByRole('combobox')).not.toBeInTheDocument();
    const input = within(dialog).getByRole('textbox', { name: 'Название категории' });
    await ue.type(input, 'Продукты{Enter}');
    expect(await within(dialog).findByText('Введите другое название')).toBeInTheDocument();

    reply = fail(422, 'Не более 255 символов');
    await ue.type(input, '!{Enter}');
    expect(await within(dialog).findByText('Не более 255 символов')).toBeInTheDocument();

    reply = fail(422);
    await ue.type(input, '!{Enter}');
    expect(await within(dialog).findByText('Введите другое название')).toBeInTheDocument();
  });

  it('shows the server message or the default text on 403', async () => {
    let reply: MockReply = fail(403, 'Доступ запрещен');
    const { ue } = setup({ routes: { 'POST /api/courses/categories': () => reply } });
    await ue.click(await toolbarButton('Создать категорию'));
    await ue.type(await screen.findByRole('textbox', { name: 'Название категории' }), 'Новая{Enter}');
    expect(await screen.findByText('Доступ запрещен')).toBeInTheDocument();

    reply = fail(403);
    await ue.click(screen.getByRole('button', { name: 'Создать категорию' }));
    await ue.type(await screen.findByRole('textbox', { name: 'Название категории' }), 'Новая{Enter}');
    expect(await screen.findByText('У вас нет прав для создания категории')).toBeInTheDocument();
  });

  it("creates a category: toast 'Категория успешно создана' and the new category shows", async () => {
    const { ue, requests } = setup();
    await ue.click(await toolbarButton('Создать категорию'));
    await ue.type(await screen.findByRole('textbox', { name: 'Название категории' }), '  Новая {Enter}');
    expect(await screen.findByText('Категория успешно создана')).toBeInTheDocument();
    expect(sent(requests, 'POST', '/api/courses/categories')[0]?.body).toEqual({ name: 'Новая' });
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(sectionNames()).toEqual(['Обязательное', 'Продукты', 'Навыки', 'Новая', 'Без категории']);
  });

  it("shows 'Ошибка при создании курса' when creating fails otherwise", async () => {
    const { ue } = setup({ routes: { 'POST /api/courses': { status: 500, data: {} } } });
    await ue.click(await toolbarButton('Создать курс'));
    await ue.type(await screen.findByRole('textbox', { name: 'Название курса' }), 'Курс{Enter}');
    expect(await screen.findByText('Ошибка при создании курса')).toBeInTheDocument();
    expect(screen.getByRole('dialog', { name: 'Новый курс' })).toBeInTheDocument();
  });
});
