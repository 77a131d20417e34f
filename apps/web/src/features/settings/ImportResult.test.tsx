import { act, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { MockReply } from '../../test/http';
import { batch, deferred, importSetup, person, ROWS, rows } from './importTesting';
import { ok } from './testing';

/** The employees import screen (issue 32): the dry run's counts and rows, and applying it. */

const setup = importSetup();

describe('Settings, employees import: the check and applying it', () => {
  it('shows the counts, the departments to create, and each row with its changes or errors', async () => {
    const { calls } = setup('/settings/import?batch=7');
    await waitFor(() => expect(rows()).toHaveLength(8));
    expect(screen.getByText('Файл «сотрудники.xlsx» проверен', { exact: false })).toBeInTheDocument();
    expect(screen.getByText('Отмечено: Создавать отделы, Удалить отсутствующих')).toBeInTheDocument();
    const counts = within(screen.getByRole('list', { name: 'Итоги проверки' }))
      .getAllByRole('listitem')
      .map((li) => li.textContent);
    expect(counts).toEqual(['Новые: 1', 'Изменятся: 1', 'Без изменений: 1', 'Будут удалены: 3', 'Ошибки: 2']);
    expect(screen.getByText('Будут созданы 2 отдела:')).toBeInTheDocument();
    expect(screen.getByText('Склад')).toBeInTheDocument();
    expect(screen.getByText('Логистика')).toBeInTheDocument();
    expect(screen.getByText(/^2 строки с ошибками будут пропущены\./)).toBeInTheDocument();

    const table = screen.getByRole('table', { name: 'Строки файла' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual(['Строка', 'Сотрудник', 'Действие', 'Изменения']);
    const [update, create, same, noName, badEmail, gone] = rows() as HTMLElement[];
    const cells = (row: HTMLElement | undefined) =>
      within(row as HTMLElement)
        .getAllByRole('cell')
        .map((td) => td.textContent);
    expect(cells(update)).toEqual([
      '2',
      'Иванов Иванivanov@company.ru',
      'Изменится',
      'Отдел: Отдел продаж → СкладДолжность: — → Старший менеджер',
    ]);
    // a new person: the fields besides the name and the address, which the person's cell shows
    expect(cells(create)).toEqual(['3', 'Новикова Нинаnovikova@company.ru', 'Новый', 'Отдел: ЛогистикаРоль: Ученик']);
    expect(cells(same)).toEqual(['4', 'Smith Johnsmith@company.ru', 'Без изменений', '—']);
    expect(cells(noName)).toEqual(['5', 'Петров—', 'Ошибка', 'Не заполнено: ИмяНе заполнено: Email']);
    expect(
      within(noName as HTMLElement)
        .getByText('Не заполнено: Имя')
        .closest('ul'),
    ).toHaveStyle({
      color: 'var(--mantine-color-red-8)',
    });
    expect(cells(badEmail)[3]).toBe('Некорректный email «bad@»');
    expect(cells(gone)).toEqual(['—', 'Борисова Аннаborisova@company.ru', 'Будет удалён', 'Нет в файле']);

    expect(calls('/api/admin/people-import/7/rows').map((r) => r.url)).toEqual([
      '/api/admin/people-import/7/rows?page=1&per_page=50',
    ]);
  });

  it('filters the rows by action and pages through them, 50 a page', async () => {
    const many = Array.from({ length: 120 }, (_, i) =>
      person(i + 2, { action: i % 2 ? 'create' : 'unchanged', email: `p${i + 2}@company.ru` }),
    );
    const { ue, calls } = setup(
      '/settings/import?batch=7',
      {},
      {
        rows: many,
        shown: batch({ counts: { create: 60, update: 0, unchanged: 60, delete: 0, error: 0 }, new_departments: [] }),
      },
    );
    await waitFor(() => expect(rows()).toHaveLength(50));
    const filter = screen.getByRole('radiogroup', { name: 'Показать строки' });
    // only the actions some row has are offered
    expect(
      within(filter)
        .getAllByRole('radio')
        .map((r) => r.closest('div')?.textContent),
    ).toEqual(['Все (120)', 'Новые (60)', 'Без изменений (60)']);
    const pages = screen.getByRole('navigation', { name: 'Страницы строк файла' });
    expect(within(pages).getByText('1–50 из 120')).toBeInTheDocument();
    await ue.click(within(pages).getByRole('button', { name: 'Страница 3' }));
    await waitFor(() => expect(rows()).toHaveLength(20));

    await ue.click(within(filter).getByRole('radio', { name: 'Новые (60)' }));
    await waitFor(() => expect(rows()).toHaveLength(50));
    expect(rows().every((r) => within(r).queryByText('Новый'))).toBe(true);
    expect(calls('/api/admin/people-import/7/rows').map((r) => r.url)).toEqual([
      '/api/admin/people-import/7/rows?page=1&per_page=50',
      '/api/admin/people-import/7/rows?page=3&per_page=50',
      '/api/admin/people-import/7/rows?page=1&per_page=50&action=create',
    ]);
  });

  it('cannot apply a file that changes nobody, and says why', async () => {
    setup(
      '/settings/import?batch=7',
      {},
      {
        rows: ROWS.filter((r) => r.action === 'unchanged' || r.action === 'error'),
        shown: batch({ counts: { create: 0, update: 0, unchanged: 1, delete: 0, error: 2 }, new_departments: [] }),
      },
    );
    const apply = await screen.findByRole('button', { name: 'Применить изменения' });
    expect(apply).toBeDisabled();
    expect(apply).toHaveAccessibleDescription(
      'Применять нечего: в файле нет изменений, кроме строк с ошибками. Исправьте их и загрузите файл снова.',
    );
  });

  it('asks before deleting, applies, says what was done and refreshes the employees list', async () => {
    const applied = batch({ status: 'applied', applied_at: '2026-01-15T09:30:00.000Z' });
    const { ue, calls, router } = setup('/settings', {
      'POST /api/admin/people-import/7/apply': ok({
        result: { success: true, message: 'Изменения применены. Добавлено: 1, изменено: 1, удалено: 3.' },
        data: applied,
      }),
    });
    await waitFor(() => expect(calls('/api/admin/users?')).toHaveLength(1));
    await act(() => router.navigate('/settings/import?batch=7'));
    await ue.click(await screen.findByRole('button', { name: 'Применить изменения' }));

    const dialog = await screen.findByRole('dialog', { name: 'Удаление сотрудников' });
    expect(dialog).toHaveTextContent(
      'Будут удалены 3 сотрудника, которых нет в файле. Их история обучения сохранится, но войти на платформу они больше не смогут.',
    );
    expect(calls('/api/admin/people-import/7/apply')).toHaveLength(0);
    await ue.click(within(dialog).getByRole('button', { name: 'Применить и удалить' }));

    expect(await screen.findAllByText('Изменения применены. Добавлено: 1, изменено: 1, удалено: 3.')).toHaveLength(2);
    expect(screen.getByTestId('import-status')).toHaveTextContent('Применено');
    expect(await screen.findByText('Применено 15.01.2026, 12:30')).toBeInTheDocument();
    expect(screen.getByText('Созданы 2 отдела:')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Применить изменения' })).not.toBeInTheDocument();
    expect(calls('/api/admin/people-import/7/apply')).toHaveLength(1);

    await ue.click(screen.getByRole('link', { name: 'К списку сотрудников' }));
    // the list was read before the import: it is read again, not shown from the cache
    await waitFor(() => expect(calls('/api/admin/users?')).toHaveLength(2));
  });

  it('applies at once when nobody is deleted, with a bar while the server writes', async () => {
    const answer = deferred<MockReply>();
    const { ue } = setup(
      '/settings/import?batch=7',
      { 'POST /api/admin/people-import/7/apply': () => answer.promise },
      { shown: batch({ counts: { create: 1, update: 1, unchanged: 1, delete: 0, error: 0 } }) },
    );
    await ue.click(await screen.findByRole('button', { name: 'Применить изменения' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(await screen.findByRole('progressbar', { name: 'Применяем изменения…' })).toBeInTheDocument();
    answer.resolve(
      ok({
        result: { success: true, message: 'Изменения применены. Добавлено: 1, изменено: 1, удалено: 0.' },
        data: batch({ status: 'applied', applied_at: '2026-01-15T09:30:00.000Z' }),
      }),
    );
    expect(await screen.findByRole('link', { name: 'К списку сотрудников' })).toHaveAttribute('href', '/settings');
    expect(screen.queryByRole('progressbar')).not.toBeInTheDocument();
  });

  it('says why applying was refused otherwise, and keeps the button', async () => {
    const { ue } = setup(
      '/settings/import?batch=7',
      {
        'POST /api/admin/people-import/7/apply': {
          status: 422,
          data: { result: { success: false, message: 'Нельзя удалить последнего администратора' } },
        },
      },
      { shown: batch({ counts: { create: 1, update: 0, unchanged: 0, delete: 0, error: 0 } }) },
    );
    await ue.click(await screen.findByRole('button', { name: 'Применить изменения' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Нельзя удалить последнего администратора');
    expect(screen.getByRole('button', { name: 'Применить изменения' })).toBeEnabled();
    expect(screen.queryByRole('button', { name: 'Загрузить файл ещё раз' })).not.toBeInTheDocument();
  });

  it('stacks each row in one cell on a phone, with the filter as a select', async () => {
    vi.spyOn(window, 'matchMedia').mockImplementation(
      (query: string) =>
        ({
          matches: query.includes('max-width'),
          media: query,
          onchange: null,
          addListener: () => {},
          removeListener: () => {},
          addEventListener: () => {},
          removeEventListener: () => {},
          dispatchEvent: () => false,
        }) as MediaQueryList,
    );
    const { ue } = setup('/settings/import?batch=7');
    await waitFor(() => expect(rows()).toHaveLength(8));
    const table = screen.getByRole('table', { name: 'Строки файла' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual(['Строка файла']);
    const [update, , , , , , gone] = rows() as HTMLElement[];
    expect(within(update as HTMLElement).getAllByRole('cell')).toHaveLength(1);
    expect(update).toHaveTextContent('Строка 2');
    expect(update).toHaveTextContent('Должность: — → Старший менеджер');
    expect(gone).toHaveTextContent('Нет в файле');
    await ue.selectOptions(screen.getByRole('combobox', { name: 'Показать строки' }), 'Ошибки (2)');
    await waitFor(() => expect(rows()).toHaveLength(2));
  });
});
