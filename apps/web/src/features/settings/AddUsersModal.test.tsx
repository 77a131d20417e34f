import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { resetToasts } from '../../test/render';
import { ok, pageQueries, settingsSetup } from './testing';

// typing into Mantine forms in jsdom is slow
vi.setConfig({ testTimeout: 30_000 });

const setup = settingsSetup();

async function openAdd(ue: ReturnType<typeof setup>['ue']) {
  await screen.findAllByTestId('user-row');
  await ue.click(screen.getByRole('button', { name: 'Добавить сотрудников' }));
  return screen.findByRole('form', { name: 'Добавление сотрудников' });
}

async function choose(ue: ReturnType<typeof setup>['ue'], label: string, option: string) {
  await ue.click(screen.getByRole('combobox', { name: label }));
  await ue.click(await screen.findByRole('option', { name: option }));
}

describe('Add students', () => {
  it('keeps at least one student: no remove button on the last one', async () => {
    const { ue } = setup('users');
    const form = await openAdd(ue);
    expect(within(form).getAllByRole('group', { name: /^Ученик #/ })).toHaveLength(1);
    expect(within(form).queryByRole('button', { name: /Удалить ученика/ })).not.toBeInTheDocument();
    await ue.click(within(form).getByRole('button', { name: 'Добавить ещё ученика' }));
    await ue.click(within(form).getByRole('button', { name: 'Добавить ещё ученика' }));
    expect(within(form).getAllByRole('group', { name: /^Ученик #/ })).toHaveLength(3);
    await ue.click(within(form).getByRole('button', { name: 'Удалить ученика #2' }));
    await ue.click(within(form).getByRole('button', { name: 'Удалить ученика #1' }));
    expect(within(form).getAllByRole('group', { name: /^Ученик #/ })).toHaveLength(1);
    expect(within(form).queryByRole('button', { name: /Удалить ученика/ })).not.toBeInTheDocument();
  });

  it('marks every empty required field at once, in every student; a filled field loses its mark (issue 30)', async () => {
    const { ue, calls } = setup('users');
    const form = await openAdd(ue);
    await ue.click(within(form).getByRole('button', { name: 'Добавить ещё ученика' }));
    await ue.click(within(form).getByRole('button', { name: 'Добавить' }));
    // One toast: the first problem in the order of the form.
    expect(await screen.findByText('Пожалуйста, выберите роль и отдел')).toBeInTheDocument();
    const field = (scope: HTMLElement, name: string) =>
      within(scope).getByRole(name === 'Роль' || name === 'Отдел' ? 'combobox' : 'textbox', { name });
    expect(field(form, 'Роль')).toHaveAttribute('aria-invalid', 'true');
    expect(field(form, 'Отдел')).toHaveAttribute('aria-invalid', 'true');
    const [first, second] = within(form).getAllByRole('group', { name: /^Ученик #/ });
    for (const block of [first!, second!]) {
      for (const name of ['Фамилия', 'Имя', 'Email']) {
        expect([name, field(block, name).getAttribute('aria-invalid')]).toEqual([name, 'true']);
      }
      expect(field(block, 'Должность')).not.toHaveAttribute('aria-invalid');
    }

    await ue.type(field(second!, 'Имя'), 'Пётр');
    expect(field(second!, 'Имя')).not.toHaveAttribute('aria-invalid');
    expect(field(second!, 'Фамилия')).toHaveAttribute('aria-invalid', 'true');
    expect(field(form, 'Роль')).toHaveAttribute('aria-invalid', 'true');
    await choose(ue, 'Роль', 'Ученик');
    expect(field(form, 'Роль')).not.toHaveAttribute('aria-invalid');
    expect(field(form, 'Отдел')).toHaveAttribute('aria-invalid', 'true');
    expect(field(first!, 'Email')).toHaveAttribute('aria-invalid', 'true');
    expect(calls('POST')).toHaveLength(0);
  });

  it('moves the focus to the new student in the click itself, so typing that follows goes where it is aimed', async () => {
    const { ue } = setup('users');
    const form = await openAdd(ue);
    act(() => {
      fireEvent.click(within(form).getByRole('button', { name: 'Добавить ещё ученика' }));
    });
    const blocks = within(form).getAllByRole('group', { name: /^Ученик #/ });
    expect(blocks).toHaveLength(2);
    expect(within(blocks[1]!).getByRole('textbox', { name: 'Фамилия' })).toHaveFocus();
  });

  it('checks role and department, then each student (#N), then creates them one by one', async () => {
    const created: unknown[] = [];
    const { ue, calls, requests } = setup('users', {
      'POST /api/admin/users': (request) => {
        created.push(request.body);
        const body = request.body as { last_name: string; first_name: string };
        return ok(
          {
            result: { success: true, message: `Пользователь ${body.last_name} ${body.first_name} успешно добавлен` },
            data: { id: 100 + created.length },
          },
          201,
        );
      },
    });
    const form = await openAdd(ue);
    expect(within(form).getByText('@company.ru')).toBeInTheDocument();
    const submit = within(form).getByRole('button', { name: 'Добавить' });

    await ue.click(submit);
    expect(await screen.findByText('Пожалуйста, выберите роль и отдел')).toBeInTheDocument();

    await choose(ue, 'Роль', 'Ученик');
    await ue.click(submit);
    expect(await screen.findAllByText('Пожалуйста, выберите роль и отдел')).toHaveLength(2);
    await choose(ue, 'Отдел', 'ИТ-отдел');

    await ue.click(within(form).getByRole('button', { name: 'Добавить ещё ученика' }));
    const [first, second] = within(form).getAllByRole('group', { name: /^Ученик #/ });
    await ue.type(within(first!).getByRole('textbox', { name: 'Фамилия' }), 'Орлова');
    await ue.type(within(first!).getByRole('textbox', { name: 'Имя' }), 'Ольга');
    await ue.type(within(first!).getByRole('textbox', { name: 'Email' }), 'o.orlova');
    await ue.type(within(first!).getByRole('textbox', { name: 'Должность' }), 'Бухгалтер');

    await ue.type(within(second!).getByRole('textbox', { name: 'Фамилия' }), 'Седов');
    await ue.click(submit);
    expect(await screen.findByText('Пожалуйста, заполните все поля у ученика #2')).toBeInTheDocument();

    await ue.type(within(second!).getByRole('textbox', { name: 'Имя' }), 'Пётр');
    await ue.type(within(second!).getByRole('textbox', { name: 'Email' }), 'p sedov');
    await ue.click(submit);
    expect(await screen.findByText('Некорректный email у ученика #2')).toBeInTheDocument();
    expect(calls('POST')).toHaveLength(0);

    const email = within(second!).getByRole('textbox', { name: 'Email' });
    await ue.clear(email);
    await ue.type(email, 'p.sedov');
    await ue.click(within(form).getByRole('combobox', { name: 'Курсы' }));
    await ue.click(await screen.findByRole('option', { name: 'Переговоры' }));
    resetToasts(); // at most 5 toasts show at once
    await ue.click(submit);

    expect(await screen.findByText('Пользователь Орлова Ольга успешно добавлен')).toBeInTheDocument();
    expect(await screen.findByText('Пользователь Седов Пётр успешно добавлен')).toBeInTheDocument();
    expect(created).toEqual([
      {
        first_name: 'Ольга',
        last_name: 'Орлова',
        login: 'o.orlova@company.ru',
        password: '',
        department_id: 11,
        role_id: 4,
        course_ids: [103],
        position: 'Бухгалтер',
      },
      {
        first_name: 'Пётр',
        last_name: 'Седов',
        login: 'p.sedov@company.ru',
        password: '',
        department_id: 11,
        role_id: 4,
        course_ids: [103],
        position: '',
      },
    ]);
    await waitFor(() => expect(screen.queryByRole('form', { name: 'Добавление сотрудников' })).not.toBeInTheDocument());
    // the current page is asked again
    await waitFor(() => expect(pageQueries(requests)).toHaveLength(2));
    expect(pageQueries(requests)[1]).toEqual({ page: '1', per_page: '50' });
  });

  it('reports a failed student and keeps only that one in the form', async () => {
    let n = 0;
    const { ue } = setup('users', {
      'POST /api/admin/users': () =>
        ++n === 1
          ? ok(
              { result: { success: true, message: 'Пользователь Орлова Ольга успешно добавлен' }, data: { id: 1 } },
              201,
            )
          : { status: 422, data: { result: { success: false, message: 'Пользователь с таким email уже существует' } } },
    });
    const form = await openAdd(ue);
    await choose(ue, 'Роль', 'Ученик');
    await choose(ue, 'Отдел', 'ИТ-отдел');
    await ue.click(within(form).getByRole('button', { name: 'Добавить ещё ученика' }));
    const blocks = within(form).getAllByRole('group', { name: /^Ученик #/ });
    for (const [i, [last, first, mail]] of [
      ['Орлова', 'Ольга', 'orlova'],
      ['Иванов', 'Иван', 'ivanov'],
    ].entries()) {
      await ue.type(within(blocks[i]!).getByRole('textbox', { name: 'Фамилия' }), last!);
      await ue.type(within(blocks[i]!).getByRole('textbox', { name: 'Имя' }), first!);
      await ue.type(within(blocks[i]!).getByRole('textbox', { name: 'Email' }), mail!);
    }
    await ue.click(within(form).getByRole('button', { name: 'Добавить' }));
    expect(
      await screen.findByText('Ошибка при добавлении пользователя: Пользователь с таким email уже существует'),
    ).toBeInTheDocument();
    const left = within(form).getAllByRole('group', { name: /^Ученик #/ });
    expect(left).toHaveLength(1);
    expect(within(left[0]!).getByRole('textbox', { name: 'Фамилия' })).toHaveValue('Иванов');
  });
});
