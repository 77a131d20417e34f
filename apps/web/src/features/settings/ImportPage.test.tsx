import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { MockReply } from '../../test/http';
import { learnerUser } from '../../test/fixtures';
import { batch, deferred, fileInput, importSetup, xlsx } from './importTesting';
import { ok } from './testing';

/** The employees import screen (issue 32): the way in, the file and its upload, the way back to it. */

const setup = importSetup();

describe('Settings, employees import: the file', () => {
  it('opens from the employees tab: the way back, the columns, the template links and the choices', async () => {
    const { ue, router } = setup('/settings');
    await ue.click(await screen.findByRole('link', { name: 'Импорт' }));
    expect(await screen.findByRole('heading', { name: 'Импорт сотрудников' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/settings/import');

    // no tab is marked; the link back is at the top
    const nav = screen.getByRole('navigation', { name: 'Разделы настроек' });
    expect(within(nav).queryByRole('link', { current: 'page' })).not.toBeInTheDocument();
    const back = screen.getAllByRole('link', { name: 'Сотрудники' }).find((a) => !nav.contains(a));
    expect(back).toHaveAttribute('href', '/settings');

    expect(screen.getByText(/Фамилия, Имя, Email, Отдел\./)).toBeInTheDocument();
    expect(screen.getByText(/Должность, Роль, Email руководителя\./)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Excel (.xlsx)' })).toHaveAttribute(
      'href',
      '/api/admin/people-import/template?format=xlsx',
    );
    expect(screen.getByRole('link', { name: 'CSV' })).toHaveAttribute(
      'href',
      '/api/admin/people-import/template?format=csv',
    );
    expect(screen.getByRole('checkbox', { name: 'Создавать отделы' })).not.toBeChecked();
    expect(screen.getByRole('checkbox', { name: 'Удалить отсутствующих' })).not.toBeChecked();
    expect(screen.getByRole('checkbox', { name: 'Удалить отсутствующих' })).toHaveAccessibleDescription(
      /Их история обучения сохранится/,
    );
    expect(screen.getByRole('checkbox', { name: 'Отправить приглашения' })).toBeChecked();
    expect(fileInput()).toHaveAttribute('accept', '.xlsx,.csv');
  });

  it('asks for a file before checking, and refuses one over 20 MB without sending it', async () => {
    const { ue, calls } = setup('/settings/import');
    await ue.click(await screen.findByRole('button', { name: 'Проверить файл' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Выберите файл с сотрудниками');
    await ue.upload(fileInput(), xlsx('big.xlsx', 20 * 1024 * 1024 + 1));
    await ue.click(screen.getByRole('button', { name: 'Проверить файл' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Файл больше 20 МБ: разделите его на несколько файлов');
    expect(calls('/api/admin/people-import').filter((r) => r.method === 'POST')).toHaveLength(0);
  });

  it('sends the choices before the file, shows the upload filling, then the check, then the result', async () => {
    const answer = deferred<MockReply>();
    const { ue, calls, report, router } = setup('/settings/import', {
      'POST /api/admin/people-import': () => answer.promise,
    });
    await ue.upload(await waitFor(fileInput), xlsx());
    await ue.click(screen.getByRole('checkbox', { name: 'Создавать отделы' }));
    await ue.click(screen.getByRole('checkbox', { name: 'Отправить приглашения' }));
    await ue.click(screen.getByRole('button', { name: 'Проверить файл' }));

    const [sent] = calls('/api/admin/people-import');
    const form = sent?.body as FormData;
    expect([...form.keys()]).toEqual(['create_departments', 'delete_missing', 'send_welcome', 'file']);
    expect(form.get('create_departments')).toBe('true');
    expect(form.get('delete_missing')).toBe('false');
    expect(form.get('send_welcome')).toBe('false');
    expect((form.get('file') as File).name).toBe('сотрудники.xlsx');

    report(40, 100);
    const bar = await screen.findByRole('progressbar', { name: 'Загрузка файла' });
    expect(bar).toHaveAttribute('aria-valuenow', '40');
    expect(screen.getByText('Загрузка файла: 40 %')).toBeInTheDocument();
    expect(screen.getByRole('checkbox', { name: 'Создавать отделы' })).toBeDisabled();

    report(100, 100);
    const checking = await screen.findByRole('progressbar', { name: 'Проверяем файл…' });
    // the check cannot be measured: no value, so it is read as busy
    expect(checking).not.toHaveAttribute('aria-valuenow');
    expect(screen.queryByRole('progressbar', { name: 'Загрузка файла' })).not.toBeInTheDocument();

    answer.resolve(ok({ result: { success: true }, data: batch() }, 201));
    expect(await screen.findByRole('heading', { name: 'Итоги проверки' })).toHaveFocus();
    expect(router.state.location.search).toBe('?batch=7');
    // the batch came with the answer: it is not asked for again
    expect(calls('/api/admin/people-import/7').filter((r) => !r.url.includes('/rows'))).toHaveLength(0);
  });

  it('shows the server’s words when the file is not a readable table', async () => {
    const { ue } = setup('/settings/import', {
      'POST /api/admin/people-import': {
        status: 422,
        data: {
          result: {
            success: false,
            message: 'Не удалось прочитать файл: загрузите таблицу в формате .xlsx или .csv',
          },
        },
      },
    });
    await ue.upload(await waitFor(fileInput), xlsx());
    await ue.click(screen.getByRole('button', { name: 'Проверить файл' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Не удалось прочитать файл: загрузите таблицу в формате .xlsx или .csv',
    );
    expect(screen.getByRole('button', { name: 'Проверить файл' })).toBeEnabled();
    expect(screen.queryByRole('progressbar')).not.toBeInTheDocument();
  });

  it('after a 409 shows why and offers to check the same file again', async () => {
    const outdated =
      'С момента проверки сотрудники или отделы изменились. Загрузите файл ещё раз, чтобы увидеть актуальные изменения';
    const fresh = batch({ counts: { create: 1, update: 0, unchanged: 0, delete: 0, error: 0 }, new_departments: [] });
    const { ue, router, calls } = setup(
      '/settings/import',
      {
        'POST /api/admin/people-import': ok({ result: { success: true }, data: fresh }, 201),
        'POST /api/admin/people-import/7/apply': {
          status: 409,
          data: { result: { success: false, message: outdated } },
        },
      },
      { shown: fresh },
    );
    await ue.upload(await waitFor(fileInput), xlsx());
    await ue.click(screen.getByRole('checkbox', { name: 'Создавать отделы' }));
    await ue.click(screen.getByRole('button', { name: 'Проверить файл' }));
    await ue.click(await screen.findByRole('button', { name: 'Применить изменения' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(outdated);
    // applying again would meet the same answer: the button is gone
    expect(screen.queryByRole('button', { name: 'Применить изменения' })).not.toBeInTheDocument();

    await ue.click(screen.getByRole('button', { name: 'Загрузить файл ещё раз' }));
    expect(router.state.location.search).toBe('');
    // the same file and choices, ready to be checked again
    expect(await screen.findByRole('button', { name: /Файл с сотрудниками/ })).toHaveTextContent('сотрудники.xlsx');
    expect(screen.getByRole('checkbox', { name: 'Создавать отделы' })).toBeChecked();
    await ue.click(screen.getByRole('button', { name: 'Проверить файл' }));
    await screen.findByRole('heading', { name: 'Итоги проверки' });
    const uploads = calls('/api/admin/people-import').filter((r) => r.url === '/api/admin/people-import');
    expect(uploads).toHaveLength(2);
    expect(((uploads[1]?.body as FormData).get('file') as File).name).toBe('сотрудники.xlsx');
    expect((uploads[1]?.body as FormData).get('create_departments')).toBe('true');
  });

  it('says when the check is gone, and offers another file', async () => {
    const { ue } = setup('/settings/import?batch=7', {
      'GET /api/admin/people-import/7': {
        status: 404,
        data: { result: { success: false, message: 'Проверка файла не найдена' } },
      },
    });
    expect(await screen.findByText('Проверка файла не найдена')).toBeInTheDocument();
    await ue.click(screen.getByRole('button', { name: 'Загрузить другой файл' }));
    expect(await screen.findByRole('button', { name: 'Проверить файл' })).toBeInTheDocument();
  });

  it('shows "Доступ запрещен" to a learner and asks nothing', async () => {
    const { calls } = setup('/settings/import?batch=7', {}, { me: learnerUser });
    expect(await screen.findByText('Доступ запрещен')).toBeInTheDocument();
    expect(calls('/api/admin/people-import')).toHaveLength(0);
  });
});
