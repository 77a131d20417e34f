import { configure, fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockHttp, type MockReply, type RecordedRequest } from '../../test/http';
import { renderAt, resetToasts } from '../../test/render';
import { CourseHeader } from './CourseHeader';
import { useCourse } from './queries';
import { constructorCourse } from '../../test/fixtures';

// The screens make a few calls in a row; on a busy machine they take longer than the 1 s default.
configure({ asyncUtilTimeout: 5000 });

const course = constructorCourse({
  id: 5,
  title: 'Охрана труда',
  description: 'Пожарная безопасность',
  image: 'storage/courses/cover.png',
});

type Handler = MockReply | ((request: RecordedRequest) => MockReply);

let restore: () => void = () => {};
afterEach(() => {
  restore();
  resetToasts();
  vi.restoreAllMocks();
});

/** The header as the page shows it: from the course query, which the header's saves update. */
function Harness() {
  const { data } = useCourse(5);
  return data ? <CourseHeader course={data} /> : null;
}

async function setup(routes: Record<string, Handler> = {}) {
  const mock = mockHttp({
    'GET /api/courses/5': { status: 200, data: { result: { success: true, course } } },
    'PUT /api/courses/5': (request) => ({
      status: 200,
      data: {
        result: { success: true, message: 'Данные сохранены', course: { ...course, ...(request.body as object) } },
      },
    }),
    ...routes,
  });
  restore = mock.restore;
  const user = userEvent.setup({ delay: null });
  renderAt(<Harness />, '/management/constructor/5');
  await screen.findByRole('switch', { name: 'Статус курса' });
  return { requests: mock.requests, user };
}

const puts = (requests: RecordedRequest[]) => requests.filter((r) => r.method === 'PUT');

describe('CourseHeader: title and description (docs/product.md §Constructor)', { timeout: 20_000 }, () => {
  it('shows the round image with a leading slash', async () => {
    await setup();
    expect(screen.getByRole('img', { name: 'Изображение курса' })).toHaveAttribute('src', '/storage/courses/cover.png');
  });

  it('edits the title on click; Enter commits and sends only the title', async () => {
    const { requests, user } = await setup();
    await user.click(screen.getByRole('button', { name: /Название курса: Охрана труда/ }));
    const input = screen.getByRole('textbox', { name: 'Название курса' });
    expect(input).toHaveValue('Охрана труда');
    expect(screen.getByText('12/150 символов')).toBeInTheDocument();
    await user.clear(input);
    await user.type(input, 'Охрана труда 2026{Enter}');
    await waitFor(() => expect(puts(requests)).toHaveLength(1));
    expect(puts(requests)[0]?.body).toEqual({ title: 'Охрана труда 2026' });
    expect(await screen.findByText('Данные сохранены')).toBeInTheDocument();
    expect(screen.queryByRole('textbox', { name: 'Название курса' })).toBeNull();
    expect(screen.getByRole('heading', { name: 'Охрана труда 2026' })).toBeInTheDocument();
  });

  it('ignores input beyond 150 characters of the title and 255 of the description', async () => {
    const { user } = await setup();
    await user.click(screen.getByRole('button', { name: /Название курса/ }));
    const title = screen.getByRole('textbox', { name: 'Название курса' });
    expect(title).toHaveAttribute('maxlength', '150');
    fireEvent.change(title, { target: { value: 'а'.repeat(200) } });
    expect(title).toHaveValue('а'.repeat(150));
    expect(screen.getByText('150/150 символов')).toBeInTheDocument();
    fireEvent.keyDown(title, { key: 'Escape' });

    await user.click(screen.getByRole('button', { name: /Описание курса/ }));
    const description = screen.getByRole('textbox', { name: 'Описание курса' });
    expect(screen.getByText('21/255 символов')).toBeInTheDocument();
    fireEvent.change(description, { target: { value: 'б'.repeat(300) } });
    expect(description).toHaveValue('б'.repeat(255));
    expect(screen.getByText('255/255 символов')).toBeInTheDocument();
  });

  it('Escape restores the stored value and sends nothing', async () => {
    const { requests, user } = await setup();
    await user.click(screen.getByRole('button', { name: /Название курса/ }));
    const input = screen.getByRole('textbox', { name: 'Название курса' });
    await user.type(input, ' — черновик');
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('textbox', { name: 'Название курса' })).toBeNull();
    expect(screen.getByRole('heading', { name: 'Охрана труда' })).toBeInTheDocument();
    expect(puts(requests)).toHaveLength(0);
  });

  it('leaving the field commits; an unchanged value is not sent', async () => {
    const { requests, user } = await setup();
    await user.click(screen.getByRole('button', { name: /Описание курса/ }));
    await user.tab();
    expect(screen.queryByRole('textbox', { name: 'Описание курса' })).toBeNull();
    expect(puts(requests)).toHaveLength(0);

    await user.click(screen.getByRole('button', { name: /Описание курса/ }));
    await user.type(screen.getByRole('textbox', { name: 'Описание курса' }), ' и первая помощь');
    fireEvent.blur(screen.getByRole('textbox', { name: 'Описание курса' }));
    await waitFor(() => expect(puts(requests)).toHaveLength(1));
    expect(puts(requests)[0]?.body).toEqual({ description: 'Пожарная безопасность и первая помощь' });
  });

  it('Shift+Enter breaks the description line; Enter alone commits', async () => {
    const { requests, user } = await setup();
    await user.click(screen.getByRole('button', { name: /Описание курса/ }));
    const input = screen.getByRole('textbox', { name: 'Описание курса' });
    await user.type(input, '{Shift>}{Enter}{/Shift}вторая строка');
    expect(screen.getByRole('textbox', { name: 'Описание курса' })).toHaveValue('Пожарная безопасность\nвторая строка');
    expect(puts(requests)).toHaveLength(0);
    await user.keyboard('{Enter}');
    await waitFor(() => expect(puts(requests)).toHaveLength(1));
    expect(puts(requests)[0]?.body).toEqual({ description: 'Пожарная безопасность\nвторая строка' });
  });

  it('a refused title shows the server message and the stored title again', async () => {
    const { user } = await setup({
      'PUT /api/courses/5': {
        status: 422,
        data: { result: { success: false, message: 'Поле не может быть пустым' }, errors: { title: ['x'] } },
      },
    });
    await user.click(screen.getByRole('button', { name: /Название курса/ }));
    await user.clear(screen.getByRole('textbox', { name: 'Название курса' }));
    await user.keyboard('{Enter}');
    expect(await screen.findByText('Поле не может быть пустым')).toBeInTheDocument();
    expect(await screen.findByRole('heading', { name: 'Охрана труда' })).toBeInTheDocument();
  });
});

describe('CourseHeader: status switch (docs/product.md §Constructor)', { timeout: 20_000 }, () => {
  it('flips at once, then tells the server', async () => {
    const { requests, user } = await setup({
      'POST /api/courses/5/publish': {
        status: 200,
        data: { result: { success: true, message: 'Статус курса успешно изменен' } },
      },
    });
    const status = screen.getByRole('switch', { name: 'Статус курса' });
    expect(status).not.toBeChecked();
    expect(screen.getByText('Не опубликован')).toBeInTheDocument();
    await user.click(status);
    expect(status).toBeChecked();
    expect(screen.getByText('Опубликован')).toBeInTheDocument();
    await waitFor(() => expect(requests.some((r) => r.url === '/api/courses/5/publish')).toBe(true));
    expect(requests.find((r) => r.url === '/api/courses/5/publish')?.body).toEqual({ is_published: true });
    expect(await screen.findByText('Статус курса успешно изменен')).toBeInTheDocument();
  });

  it('a failed request is only logged and the switch stays flipped', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    const { user } = await setup({ 'POST /api/courses/5/publish': { status: 500, data: {} } });
    const status = screen.getByRole('switch', { name: 'Статус курса' });
    await user.click(status);
    await waitFor(() => expect(log).toHaveBeenCalled());
    expect(status).toBeChecked();
    expect(screen.queryByText('Ошибка при изменении статуса курса')).toBeNull();
  });

  it('an answer without success shows «Ошибка при изменении статуса курса» and puts the switch back', async () => {
    const { user } = await setup({
      'POST /api/courses/5/publish': { status: 200, data: { result: { success: false } } },
    });
    const status = screen.getByRole('switch', { name: 'Статус курса' });
    await user.click(status);
    expect(await screen.findByText('Ошибка при изменении статуса курса')).toBeInTheDocument();
    expect(status).not.toBeChecked();
    expect(screen.getByText('Не опубликован')).toBeInTheDocument();
  });

  it('a refused change (4xx) shows «Ошибка при изменении статуса курса» with the reason and puts the switch back', async () => {
    const { user } = await setup({
      'POST /api/courses/5/publish': {
        status: 404,
        data: { result: { success: false, message: 'Курс не найден' } },
      },
    });
    const status = screen.getByRole('switch', { name: 'Статус курса' });
    await user.click(status);
    expect(await screen.findByText('Ошибка при изменении статуса курса: Курс не найден')).toBeInTheDocument();
    expect(status).not.toBeChecked();
    expect(screen.getByText('Не опубликован')).toBeInTheDocument();
  });

  it('after an image upload the switch shows the course state again', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    const { requests, user } = await setup({
      'POST /api/courses/5/publish': { status: 500, data: {} },
      'POST /api/courses/5/image': {
        status: 200,
        data: { result: { success: true, message: 'Изображение успешно загружено', image: 'storage/courses/new.png' } },
      },
    });
    const status = screen.getByRole('switch', { name: 'Статус курса' });
    await user.click(status);
    await waitFor(() => expect(log).toHaveBeenCalled());
    expect(status).toBeChecked();

    const input = document.querySelector<HTMLInputElement>('input[type="file"]');
    if (!input) throw new Error('no file input');
    await user.upload(input, new File(['png'], 'cover.png', { type: 'image/png' }));
    expect(await screen.findByText('Изображение успешно загружено')).toBeInTheDocument();
    const upload = requests.find((r) => r.url === '/api/courses/5/image');
    expect(upload?.body).toBeInstanceOf(FormData);
    expect((upload?.body as FormData).get('image')).toBeInstanceOf(File);
    expect(status).not.toBeChecked();
    expect(screen.getByRole('img', { name: 'Изображение курса' })).toHaveAttribute('src', '/storage/courses/new.png');
  });
});
