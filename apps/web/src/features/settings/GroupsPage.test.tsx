import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { learnerUser, ok, savedItem, settingsSetup } from './testing';

vi.setConfig({ testTimeout: 30_000 });

const setup = settingsSetup();

describe('Settings, study groups tab', () => {
  it('lists groups with their member count and filters by name', async () => {
    const { ue } = setup('groups');
    const rows = await screen.findAllByTestId('group-row');
    expect(rows).toHaveLength(2);
    expect(within(rows[0]!).getByText('Новые сотрудники')).toBeInTheDocument();
    expect(within(rows[0]!).getByLabelText('Участники: 2')).toHaveTextContent('2');
    // The members' avatars: first name, then last name, as on every screen (issue 30).
    expect(within(rows[0]!).getByText('JS')).toBeInTheDocument();
    expect(within(rows[1]!).getByLabelText('Участники: 0')).toHaveTextContent('0');
    await ue.type(screen.getByRole('searchbox', { name: 'Поиск по названию группы' }), 'настав');
    expect(screen.getAllByTestId('group-row')).toHaveLength(1);
    expect(screen.getByTestId('group-row')).toHaveTextContent('Наставники');
  });

  it('shows "Доступ запрещен" to a learner', async () => {
    const { requests } = setup('groups', {}, learnerUser);
    expect(await screen.findByText('Доступ запрещен')).toBeInTheDocument();
    expect(requests.some((r) => r.url.startsWith('/api/study-groups'))).toBe(false);
  });

  it('groups the member list by first letter, Latin first, and creates the group', async () => {
    const { ue, calls } = setup('groups', {
      'POST /api/study-groups': savedItem(30, 'Группа успешно добавлена', 201),
    });
    await screen.findAllByTestId('group-row');
    await ue.click(screen.getByRole('button', { name: 'Добавить группу' }));
    const form = await screen.findByRole('form', { name: 'Новая учебная группа' });
    await waitFor(() => expect(within(form).getAllByTestId('member-letter')).not.toHaveLength(0));
    const letters = within(form)
      .getAllByTestId('member-letter')
      .map((g) => g.getAttribute('aria-label'));
    expect(letters).toEqual(['A', 'S', 'Б', 'И', 'П']);

    await ue.click(within(form).getByRole('button', { name: 'Добавить' }));
    expect(await screen.findByText('Пожалуйста, введите название группы')).toBeInTheDocument();

    await ue.type(within(form).getByRole('textbox', { name: 'Название группы' }), 'Стажёры');
    await ue.click(within(form).getByRole('checkbox', { name: /Smith John/ }));
    await ue.click(within(form).getByRole('checkbox', { name: /Борисова Анна/ }));
    expect(within(form).getByText('Выбрано: 2')).toBeInTheDocument();
    await ue.type(within(form).getByRole('textbox', { name: 'Поиск сотрудника' }), 'adams');
    expect(within(form).getAllByRole('checkbox')).toHaveLength(1);
    await ue.click(within(form).getByRole('combobox', { name: 'Курсы' }));
    await ue.click(await screen.findByRole('option', { name: 'Тайм-менеджмент' }));
    await ue.click(within(form).getByRole('button', { name: 'Добавить' }));

    expect(await screen.findByText('Группа успешно добавлена')).toBeInTheDocument();
    expect(calls('POST', '/api/study-groups')[0]?.body).toEqual({
      name: 'Стажёры',
      user_ids: [3, 4],
      course_ids: [104],
    });
  });

  it('treats an answer other than 201 to a create as a failure', async () => {
    const { ue } = setup('groups', {
      'POST /api/study-groups': ok({ result: { success: true } }, 200),
    });
    await screen.findAllByTestId('group-row');
    await ue.click(screen.getByRole('button', { name: 'Добавить группу' }));
    const form = await screen.findByRole('form', { name: 'Новая учебная группа' });
    await ue.type(within(form).getByRole('textbox', { name: 'Название группы' }), 'Стажёры');
    await ue.click(within(form).getByRole('button', { name: 'Добавить' }));
    expect(await screen.findByText('Ошибка при добавлении группы')).toBeInTheDocument();
  });

  it('edits members and deletes a group (204) after confirming', async () => {
    const { ue, calls } = setup('groups', {
      'GET /api/study-groups/20/courses': ok({
        result: { success: true, items: [{ id: 101, name: 'Охрана труда', value: '101', label: 'Охрана труда' }] },
      }),
      'PUT /api/study-groups/20': savedItem(20, 'Группа успешно обновлена'),
      'DELETE /api/study-groups/20': { status: 204, data: '' },
    });
    await screen.findAllByTestId('group-row');
    await ue.click(screen.getByText('Новые сотрудники'));
    let form = await screen.findByRole('form', { name: 'Редактирование учебной группы' });
    expect(within(form).getByRole('checkbox', { name: /Иванов Иван/ })).toBeChecked();
    expect(within(form).getByRole('checkbox', { name: /Smith John/ })).toBeChecked();
    await ue.click(within(form).getByRole('checkbox', { name: /Иванов Иван/ }));
    await ue.click(within(form).getByRole('button', { name: 'Сохранить' }));
    expect(await screen.findByText('Группа успешно обновлена')).toBeInTheDocument();
    expect(calls('PUT')[0]?.body).toEqual({ name: 'Новые сотрудники', user_ids: [3], course_ids: [101] });

    await waitFor(() =>
      expect(screen.queryByRole('form', { name: 'Редактирование учебной группы' })).not.toBeInTheDocument(),
    );
    await ue.click(screen.getByText('Новые сотрудники'));
    form = await screen.findByRole('form', { name: 'Редактирование учебной группы' });
    await ue.click(within(form).getByRole('button', { name: 'Удалить' }));
    const dialog = await screen.findByRole('dialog', { name: 'Удаление группы' });
    await ue.click(within(dialog).getByRole('button', { name: 'Удалить' }));
    expect(await screen.findByText('Группа успешно удалена')).toBeInTheDocument();
    expect(calls('DELETE', '/api/study-groups/20')).toHaveLength(1);
  });
});
