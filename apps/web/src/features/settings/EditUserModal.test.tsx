import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { ok, pageQueries, settingsSetup, users } from './testing';

// typing into Mantine forms in jsdom is slow
vi.setConfig({ testTimeout: 30_000 });

const setup = settingsSetup();

describe('Edit student', () => {
  const detail = (id: number, courses: { id: number; name: string }[]) => {
    const user = users.find((u) => u.id === id)!;
    return {
      [`GET /api/admin/users/${id}`]: ok({ result: { success: true, data: { ...user, courses } } }),
      [`GET /api/admin/users/${id}/courses`]: ok({ result: { success: true, data: courses } }),
    };
  };

  it('saves the fields and sends only the difference of the course sets', async () => {
    const { ue, calls } = setup('users', {
      ...detail(2, [
        { id: 101, name: 'Охрана труда' },
        { id: 102, name: 'Информационная безопасность' },
      ]),
      'PUT /api/admin/users/2': ok({ result: { success: true, message: 'Пользователь Иванов Иван успешно обновлен' } }),
      'POST /api/admin/user-courses/attach': ok({ result: { success: true } }),
      'POST /api/admin/user-courses/detach': ok({ result: { success: true } }),
    });
    await screen.findAllByTestId('user-row');
    await ue.click(screen.getByText('Иванов Иван'));
    const form = await screen.findByRole('form', { name: 'Редактирование сотрудника' });
    expect(within(form).getByRole('textbox', { name: 'Email' })).toHaveValue('ivanov');
    expect(within(form).getByText('@company.ru')).toBeInTheDocument();
    expect(within(form).getByRole('textbox', { name: 'Фамилия' })).toHaveValue('Иванов');

    await ue.click(within(form).getByLabelText('Убрать курс Охрана труда'));
    await ue.click(within(form).getByRole('combobox', { name: 'Курсы' }));
    await ue.click(await screen.findByRole('option', { name: 'Переговоры' }));
    const position = within(form).getByRole('textbox', { name: 'Должность' });
    await ue.clear(position);
    await ue.type(position, 'Старший менеджер');
    await ue.click(within(form).getByRole('button', { name: 'Сохранить' }));

    expect(await screen.findByText('Пользователь Иванов Иван успешно обновлен')).toBeInTheDocument();
    expect(calls('PUT')[0]?.body).toEqual({
      first_name: 'Иван',
      last_name: 'Иванов',
      login: 'ivanov@company.ru',
      department_id: 10,
      role_id: 4,
      position: 'Старший менеджер',
      manager_email: '',
    });
    expect(calls('POST', '/api/admin/user-courses/attach').map((r) => r.body)).toEqual([
      { user_id: 2, course_ids: [103] },
    ]);
    expect(calls('POST', '/api/admin/user-courses/detach').map((r) => r.body)).toEqual([
      { user_id: 2, course_ids: [101] },
    ]);
  });

  it('sends no course call when the set did not change, and checks the fields', async () => {
    const { ue, calls } = setup('users', {
      ...detail(2, [{ id: 101, name: 'Охрана труда' }]),
      'PUT /api/admin/users/2': { status: 422, data: { result: { success: false, message: 'Некорректный email' } } },
    });
    await screen.findAllByTestId('user-row');
    await ue.click(screen.getByText('Иванов Иван'));
    const form = await screen.findByRole('form', { name: 'Редактирование сотрудника' });
    const first = within(form).getByRole('textbox', { name: 'Имя' });
    const last = within(form).getByRole('textbox', { name: 'Фамилия' });
    await ue.clear(first);
    await ue.clear(last);
    await ue.click(within(form).getByRole('button', { name: 'Сохранить' }));
    expect(await screen.findByText('Пожалуйста, заполните все поля')).toBeInTheDocument();
    // Both empty fields at once (issue 30); a filled one loses its mark.
    expect(first).toHaveAttribute('aria-invalid', 'true');
    expect(last).toHaveAttribute('aria-invalid', 'true');
    await ue.type(first, 'Иван');
    expect(first).not.toHaveAttribute('aria-invalid');
    expect(last).toHaveAttribute('aria-invalid', 'true');
    await ue.type(last, 'Иванов');
    const email = within(form).getByRole('textbox', { name: 'Email' });
    await ue.clear(email);
    await ue.type(email, 'ivanov@');
    await ue.click(within(form).getByRole('button', { name: 'Сохранить' }));
    expect(await screen.findByText('Некорректный email')).toBeInTheDocument();
    expect(calls('PUT')).toHaveLength(0);

    await ue.clear(email);
    await ue.type(email, 'ivanov');
    await ue.click(within(form).getByRole('button', { name: 'Сохранить' }));
    expect(await screen.findByText('Ошибка при обновлении пользователя: Некорректный email')).toBeInTheDocument();
    expect(calls('POST')).toHaveLength(0);
  });

  it('keeps the directory’s fields of a synced person read-only: role and courses stay editable, no delete', async () => {
    const user = users.find((u) => u.id === 2)!;
    const { ue, calls } = setup('users', {
      'GET /api/admin/users/2': ok({ result: { success: true, data: { ...user, from_directory: true, courses: [] } } }),
      'GET /api/admin/users/2/courses': ok({ result: { success: true, data: [] } }),
      'PUT /api/admin/users/2': ok({ result: { success: true, message: 'Пользователь Иванов Иван успешно обновлен' } }),
    });
    await screen.findAllByTestId('user-row');
    await ue.click(screen.getByText('Иванов Иван'));
    const form = await screen.findByRole('form', { name: 'Редактирование сотрудника' });
    for (const name of ['Фамилия', 'Имя', 'Email', 'Должность']) {
      expect(within(form).getByRole('textbox', { name })).toBeDisabled();
    }
    expect(within(form).getByText(/синхронизируется с каталогом/)).toBeInTheDocument();
    expect(within(form).queryByRole('button', { name: 'Удалить' })).not.toBeInTheDocument();
    expect(within(form).getByRole('combobox', { name: 'Роль' })).toBeEnabled();
    expect(within(form).getByRole('combobox', { name: 'Отдел' })).toBeDisabled();
    await ue.click(within(form).getByRole('button', { name: 'Сохранить' }));
    await waitFor(() => expect(calls('PUT')).toHaveLength(1));
  });

  it('refuses to delete one’s own account without asking the server', async () => {
    const { ue, calls } = setup('users', detail(1, []));
    await screen.findAllByTestId('user-row');
    await ue.click(screen.getByText('Петрова Мария'));
    const form = await screen.findByRole('form', { name: 'Редактирование сотрудника' });
    await ue.click(within(form).getByRole('button', { name: 'Удалить' }));
    expect(await screen.findByText('Вы не можете удалить свою собственную учетную запись')).toBeInTheDocument();
    expect(screen.queryByRole('dialog', { name: 'Удаление сотрудника' })).not.toBeInTheDocument();
    expect(calls('DELETE')).toHaveLength(0);
  });

  it('deletes another user after confirming, and resets a password after confirming', async () => {
    const { ue, calls, requests } = setup('users', {
      ...detail(3, []),
      'DELETE /api/admin/users/3': ok({ result: { success: true, message: 'Пользователь Smith John успешно удален' } }),
      'POST /api/admin/users/3/reset-password': ok({
        result: { success: true, message: 'Пароль успешно сброшен и отправлен на email пользователя' },
      }),
    });
    await screen.findAllByTestId('user-row');
    await ue.click(screen.getByText('Smith John'));
    let form = await screen.findByRole('form', { name: 'Редактирование сотрудника' });

    await ue.click(within(form).getByRole('button', { name: 'Сбросить пароль' }));
    const reset = await screen.findByRole('dialog', { name: 'Сброс пароля' });
    await ue.click(within(reset).getByRole('button', { name: 'Сбросить' }));
    expect(await screen.findByText('Пароль успешно сброшен и отправлен на email пользователя')).toBeInTheDocument();
    expect(calls('POST', '/api/admin/users/3/reset-password')).toHaveLength(1);

    form = screen.getByRole('form', { name: 'Редактирование сотрудника' });
    await ue.click(within(form).getByRole('button', { name: 'Удалить' }));
    const confirm = await screen.findByRole('dialog', { name: 'Удаление сотрудника' });
    expect(calls('DELETE')).toHaveLength(0);
    await ue.click(within(confirm).getByRole('button', { name: 'Удалить' }));
    expect(await screen.findByText('Пользователь Smith John успешно удален')).toBeInTheDocument();
    expect(calls('DELETE', '/api/admin/users/3')).toHaveLength(1);
    // the page shown is asked again
    await waitFor(() => expect(pageQueries(requests)).toHaveLength(2));
  });

  it('shows the error of a failed password reset with the server message', async () => {
    const { ue } = setup('users', {
      ...detail(3, []),
      'POST /api/admin/users/3/reset-password': {
        status: 404,
        data: { result: { success: false, message: 'Пользователь не найден' } },
      },
    });
    await screen.findAllByTestId('user-row');
    await ue.click(screen.getByText('Smith John'));
    const form = await screen.findByRole('form', { name: 'Редактирование сотрудника' });
    await ue.click(within(form).getByRole('button', { name: 'Сбросить пароль' }));
    await ue.click(
      within(await screen.findByRole('dialog', { name: 'Сброс пароля' })).getByRole('button', { name: 'Сбросить' }),
    );
    expect(await screen.findByText('Ошибка при сбросе пароля: Пользователь не найден')).toBeInTheDocument();
  });
});
