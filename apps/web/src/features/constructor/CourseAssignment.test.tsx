import type { CourseAssignment } from '@lms/contract';
import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { settingsQueryKey } from '../../shared/queryKeys';
import { authorUser, constructorCourse, courseAssignment } from '../../test/fixtures';
import { mockHttp, type MockReply, type RecordedRequest } from '../../test/http';
import { renderRoutes, resetToasts } from '../../test/render';
import CourseSettingsPage from './CourseSettingsPage';

configure({ asyncUtilTimeout: 5000 });

let restore: () => void = () => {};
afterEach(() => {
  restore();
  resetToasts();
});

const sales = { id: 1, name: 'Продажи', members: 12 };
const stock = { id: 2, name: 'Склад', members: 1 };
const hr = { id: 3, name: 'Служба персонала', members: 3 };
const newcomers = { id: 5, name: 'Новички', members: 4 };
const vera = { id: 11, name: 'Орлова Вера', email: 'vera@company.ru', department: 'Продажи' };
const petr = { id: 12, name: 'Орлов Пётр', email: 'petr@company.ru', department: null };

const start = courseAssignment({
  learners: 13,
  departments: [sales],
  users: [vera],
  users_total: 1,
  choices: { departments: [sales, stock, hr], groups: [newcomers] },
});

const changed = (message: string, assignment: CourseAssignment): MockReply => ({
  status: 200,
  data: { result: { success: true, message, assignment } },
});

function setup(routes: Record<string, MockReply | ((r: RecordedRequest) => MockReply)> = {}) {
  const mock = mockHttp({
    'GET /api/check-auth': { status: 200, data: authorUser },
    'GET /api/courses/7': { status: 200, data: { result: { success: true, course: constructorCourse() } } },
    'GET /api/courses/7/assignment': { status: 200, data: { result: { success: true, assignment: start } } },
    // The page's certificate card (its own tests: CertificateCard.test.tsx).
    'GET /api/courses/7/certificate': {
      status: 200,
      data: {
        result: {
          success: true,
          settings: { enabled: false, title: 'Сертификат', signer_name: null, signer_position: null, logo: null },
        },
      },
    },
    ...routes,
  });
  restore = mock.restore;
  const rendered = renderRoutes(
    [{ path: '/management/constructor/:courseId/settings', element: <CourseSettingsPage /> }],
    '/management/constructor/7/settings',
  );
  const sent = (method: string, url: string) => mock.requests.filter((r) => r.method === method && r.url === url);
  return { user: userEvent.setup({ delay: null }), sent, queryClient: rendered.queryClient };
}

const block = (name: string) => screen.getByRole('region', { name });

describe('the course’s «Назначение»', { timeout: 20_000 }, () => {
  it('shows the departments, groups and employees with counts in the right plural', async () => {
    setup();
    expect(await screen.findByText('Всего назначено 13 сотрудникам')).toBeInTheDocument();
    const departments = block('Отделы');
    expect(within(departments).getByRole('listitem')).toHaveTextContent('Продажи · 12 сотрудников');
    expect(within(block('Группы')).getByText('Курс не назначен ни одной группе')).toBeInTheDocument();
    expect(within(block('Сотрудники')).getByRole('listitem')).toHaveTextContent(
      'Орлова Вера · vera@company.ru, Продажи',
    );
  });

  it('gives the course to the departments chosen, then refreshes the school settings', async () => {
    const after = courseAssignment({ ...start, learners: 14, departments: [sales, stock] });
    const { user, sent, queryClient } = setup({
      'POST /api/courses/7/assignment/departments': changed('Курс назначен отделу «Склад»', after),
    });
    queryClient.setQueryData([...settingsQueryKey, 'departments'], []);
    const departments = await screen.findByRole('region', { name: 'Отделы' });
    const assign = within(departments).getByRole('button', { name: 'Назначить' });
    expect(assign).toBeDisabled();
    await user.click(within(departments).getByRole('combobox', { name: 'Добавить отделы' }));
    // An assigned department is not offered again; the others show their size.
    expect(screen.queryByRole('option', { name: /^Продажи/ })).toBeNull();
    const option = await screen.findByRole('option', { name: /^Склад/ });
    expect(option).toHaveTextContent('Склад · 1 сотрудник');
    await user.click(option);
    await user.click(assign);

    expect(await screen.findByText('Курс назначен отделу «Склад»')).toBeInTheDocument();
    expect(sent('POST', '/api/courses/7/assignment/departments')[0]?.body).toEqual({ department_ids: [2] });
    expect(within(departments).getAllByRole('listitem')).toHaveLength(2);
    expect(within(departments).getAllByRole('listitem')[1]).toHaveTextContent('Склад · 1 сотрудник');
    expect(screen.getByText('Всего назначено 14 сотрудникам')).toBeInTheDocument();
    expect(queryClient.getQueryState([...settingsQueryKey, 'departments'])?.isInvalidated).toBe(true);
  });

  it('asks before taking the course from a department, and says the progress stays', async () => {
    const after = courseAssignment({ ...start, learners: 1, departments: [] });
    const { user, sent } = setup({
      'DELETE /api/courses/7/assignment/departments/1': changed('Назначение отделу «Продажи» снято', after),
    });
    await user.click(await screen.findByRole('button', { name: 'Снять назначение: Продажи' }));
    const dialog = await screen.findByRole('dialog', { name: 'Снять назначение с отдела' });
    expect(dialog).toHaveTextContent('Снять курс с отдела «Продажи»?');
    expect(dialog).toHaveTextContent('Сотрудники отдела потеряют доступ к курсу, их прогресс сохранится');
    await user.click(within(dialog).getByRole('button', { name: 'Отмена' }));
    expect(sent('DELETE', '/api/courses/7/assignment/departments/1')).toHaveLength(0);

    await user.click(screen.getByRole('button', { name: 'Снять назначение: Продажи' }));
    const again = await screen.findByRole('dialog', { name: 'Снять назначение с отдела' });
    await user.click(within(again).getByRole('button', { name: 'Снять назначение' }));
    expect(await screen.findByText('Назначение отделу «Продажи» снято')).toBeInTheDocument();
    expect(sent('DELETE', '/api/courses/7/assignment/departments/1')).toHaveLength(1);
    expect(await within(block('Отделы')).findByText('Курс не назначен ни одному отделу')).toBeInTheDocument();
    expect(screen.getByText('Всего назначено 1 сотруднику')).toBeInTheDocument();
  });

  it('finds employees on the server, offers only those without the course, and assigns them', async () => {
    const after = courseAssignment({ ...start, users: [petr, vera], users_total: 2, learners: 14 });
    const { user, sent } = setup({
      'GET /api/courses/7/assignment/candidates': (request) => ({
        status: 200,
        data: {
          result: {
            success: true,
            items: request.url.includes('search=')
              ? [
                  { ...petr, assigned: false },
                  { ...vera, assigned: true },
                ]
              : [],
          },
        },
      }),
      'POST /api/courses/7/assignment/users': changed('Курс назначен сотруднику Орлов Пётр', after),
    });
    const users = await screen.findByRole('region', { name: 'Сотрудники' });
    await user.type(within(users).getByRole('combobox', { name: 'Добавить сотрудников' }), 'орлов');
    const option = await screen.findByRole('option', { name: /Орлов Пётр/ });
    expect(option).toHaveTextContent('petr@company.ru');
    expect(screen.getByRole('option', { name: /Орлова Вера/ })).toHaveAttribute('data-combobox-disabled', 'true');
    expect(sent('GET', '/api/courses/7/assignment/candidates?search=%D0%BE%D1%80%D0%BB%D0%BE%D0%B2')).toHaveLength(1);
    await user.click(option);
    await user.click(within(users).getByRole('button', { name: 'Назначить' }));
    expect(await screen.findByText('Курс назначен сотруднику Орлов Пётр')).toBeInTheDocument();
    expect(sent('POST', '/api/courses/7/assignment/users')[0]?.body).toEqual({ user_ids: [12] });
    expect(within(users).getAllByRole('listitem')).toHaveLength(2);
  });

  it('takes the course from an employee at once, and shows the server’s refusal', async () => {
    const { user, sent } = setup({
      'DELETE /api/courses/7/assignment/users/11': {
        status: 404,
        data: { result: { success: false, message: 'Сотрудник не найден' } },
      },
    });
    await user.click(await screen.findByRole('button', { name: 'Снять назначение: Орлова Вера' }));
    expect(await screen.findByText('Сотрудник не найден')).toBeInTheDocument();
    expect(sent('DELETE', '/api/courses/7/assignment/users/11')).toHaveLength(1);
    expect(within(block('Сотрудники')).getAllByRole('listitem')).toHaveLength(1);
  });

  it('a failed load says so and asks again on request', async () => {
    let calls = 0;
    const { user } = setup({
      'GET /api/courses/7/assignment': () =>
        ++calls === 1
          ? { status: 500, data: { result: { success: false, message: 'Внутренняя ошибка сервера' } } }
          : { status: 200, data: { result: { success: true, assignment: start } } },
    });
    expect(await screen.findByText('Не удалось загрузить назначения курса')).toBeInTheDocument();
    // The rest of the settings still work.
    expect(screen.getByRole('switch', { name: 'Ограничить срок прохождения' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Повторить' }));
    await waitFor(() => expect(screen.getByText('Всего назначено 13 сотрудникам')).toBeInTheDocument());
  });
});
