import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { learnerUser, ok, savedItem, settingsSetup } from './testing';

vi.setConfig({ testTimeout: 30_000 });

const setup = settingsSetup();

const names = () =>
  screen.getAllByTestId('department-row').map((row) => within(row).getAllByRole('cell')[0]?.textContent);

describe('Settings, departments tab', () => {
  it('lists departments by sort order, a missing value counting as 0', async () => {
    setup('departments');
    await screen.findAllByTestId('department-row');
    // ИТ-отдел has no sort order (0), Бухгалтерия 1, Отдел продаж 2
    expect(names()).toEqual(['ИТ-отдел', 'Бухгалтерия', 'Отдел продаж']);
    expect(screen.getByRole('link', { name: 'Отделы' })).toHaveAttribute('aria-current', 'page');
  });

  it('filters by name, case-insensitively', async () => {
    const { ue } = setup('departments');
    await screen.findAllByTestId('department-row');
    await ue.type(screen.getByRole('searchbox', { name: 'Поиск по названию отдела' }), 'ОТДЕЛ');
    expect(names()).toEqual(['ИТ-отдел', 'Отдел продаж']);
  });

  it('shows "Доступ запрещен" to a learner', async () => {
    const { requests } = setup('departments', {}, learnerUser);
    expect(await screen.findByText('Доступ запрещен')).toBeInTheDocument();
    expect(requests.some((r) => r.url.startsWith('/api/admin'))).toBe(false);
  });

  it('checks the name and the sort order, then adds the department with its courses', async () => {
    const { ue, calls } = setup('departments', {
      'POST /api/admin/departments': savedItem(50, 'Отдел успешно добавлен', 201),
    });
    await screen.findAllByTestId('department-row');
    await ue.click(screen.getByRole('button', { name: 'Добавить отдел' }));
    const form = await screen.findByRole('form', { name: 'Новый отдел' });
    await ue.click(within(form).getByRole('button', { name: 'Добавить' }));
    expect(await screen.findByText('Пожалуйста, введите название отдела')).toBeInTheDocument();

    await ue.type(within(form).getByRole('textbox', { name: 'Название отдела' }), 'Логистика');
    const sort = within(form).getByRole('textbox', { name: 'Порядок сортировки' });
    await ue.type(sort, '-3');
    await ue.click(within(form).getByRole('button', { name: 'Добавить' }));
    expect(await screen.findAllByText('Порядок сортировки не может быть отрицательным')).not.toHaveLength(0);
    await ue.clear(sort);
    await ue.type(sort, '4');
    await ue.click(within(form).getByRole('combobox', { name: 'Курсы' }));
    await ue.click(await screen.findByRole('option', { name: 'Охрана труда' }));
    await ue.click(await screen.findByRole('option', { name: 'Переговоры' }));
    expect(calls('POST')).toHaveLength(0);
    await ue.click(within(form).getByRole('button', { name: 'Добавить' }));

    expect(await screen.findByText('Отдел успешно добавлен')).toBeInTheDocument();
    expect(calls('POST')[0]?.body).toEqual({ name: 'Логистика', sort_order: 4, course_ids: [101, 103] });
  });

  it('edits a department, prefilled from its courses, and shows the server error', async () => {
    const { ue, calls } = setup('departments', {
      'GET /api/admin/departments/10/courses': ok({
        result: { success: true, items: [{ id: 101, name: 'Охрана труда', value: '101', label: 'Охрана труда' }] },
      }),
      'PUT /api/admin/departments/10': { status: 500, data: {} },
    });
    await screen.findAllByTestId('department-row');
    await ue.click(screen.getByText('Отдел продаж'));
    const form = await screen.findByRole('form', { name: 'Редактирование отдела' });
    expect(within(form).getByRole('textbox', { name: 'Название отдела' })).toHaveValue('Отдел продаж');
    expect(within(form).getByRole('textbox', { name: 'Порядок сортировки' })).toHaveValue('2');
    expect(within(form).getByText('Охрана труда', { selector: '.mantine-Pill-label' })).toBeInTheDocument();
    await ue.click(within(form).getByRole('button', { name: 'Сохранить' }));
    expect(await screen.findByText('Ошибка при обновлении отдела')).toBeInTheDocument();
    expect(calls('PUT')[0]?.body).toEqual({ name: 'Отдел продаж', sort_order: 2, course_ids: [101] });
  });

  it('shows 3 course chips in the edit form and 5 in the add form, then "+N"', async () => {
    const all = [101, 102, 103, 104, 105].map((id) => ({
      id,
      name: `Курс ${id}`,
      value: String(id),
      label: `Курс ${id}`,
    }));
    const { ue } = setup('departments', {
      'GET /api/admin/departments/10/courses': ok({ result: { success: true, items: all } }),
    });
    await screen.findAllByTestId('department-row');
    await ue.click(screen.getByText('Отдел продаж'));
    const form = await screen.findByRole('form', { name: 'Редактирование отдела' });
    await waitFor(() => expect(form.querySelectorAll('.mantine-Pill-root')).toHaveLength(4));
    expect(within(form).getByTestId('courses-more')).toHaveTextContent('+2');
    await ue.click(within(form).getByRole('button', { name: 'Отмена' }));
    await waitFor(() => expect(screen.queryByRole('form')).not.toBeInTheDocument());

    await ue.click(screen.getByRole('button', { name: 'Добавить отдел' }));
    const add = await screen.findByRole('form', { name: 'Новый отдел' });
    await ue.click(within(add).getByRole('combobox', { name: 'Курсы' }));
    for (const name of [
      'Охрана труда',
      'Информационная безопасность',
      'Переговоры',
      'Тайм-менеджмент',
      'Продукт компании',
    ]) {
      await ue.click(await screen.findByRole('option', { name }));
    }
    expect(add.querySelectorAll('.mantine-Pill-root')).toHaveLength(5);
    expect(within(add).queryByTestId('courses-more')).not.toBeInTheDocument();
  });

  it('deletes a department after confirming', async () => {
    const { ue, calls } = setup('departments', {
      'GET /api/admin/departments/11/courses': ok({ result: { success: true, items: [] } }),
      'DELETE /api/admin/departments/11': ok({ result: { success: true, message: 'Отдел успешно удален' } }),
    });
    await screen.findAllByTestId('department-row');
    await ue.click(screen.getByText('ИТ-отдел'));
    const form = await screen.findByRole('form', { name: 'Редактирование отдела' });
    await ue.click(within(form).getByRole('button', { name: 'Удалить' }));
    const dialog = await screen.findByRole('dialog', { name: 'Удаление отдела' });
    await ue.click(within(dialog).getByRole('button', { name: 'Удалить' }));
    expect(await screen.findByText('Отдел успешно удален')).toBeInTheDocument();
    await waitFor(() => expect(calls('DELETE', '/api/admin/departments/11')).toHaveLength(1));
  });

  it('shows "Ошибка загрузки данных" when the course list fails', async () => {
    const { ue } = setup('departments', { 'GET /api/courses': { status: 404, data: {} } });
    await screen.findAllByTestId('department-row');
    await ue.click(screen.getByRole('button', { name: 'Добавить отдел' }));
    expect(await screen.findByText('Ошибка загрузки данных')).toBeInTheDocument();
  });
});
