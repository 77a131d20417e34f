import type { ConstructorModule, ScormPackageInfo } from '@lms/contract';
import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { mockHttp, type MockReply, type RecordedRequest } from '../../test/http';
import { renderRoutes, resetToasts } from '../../test/render';
import { authorUser, constructorCourse } from '../../test/fixtures';
import ConstructorPage from './ConstructorPage';

/* The constructor's page of a SCORM item (issue 34): versions, uploads and their refusals, publishing. */

configure({ asyncUtilTimeout: 5000 });

type Handler = MockReply | ((request: RecordedRequest) => MockReply | Promise<MockReply>);
const ok = (data: Record<string, unknown> = {}) => ({ status: 200, data: { result: { success: true, ...data } } });

const scormItem = { id: 15, name: 'Охрана труда', module_id: 1, is_published: false, sort_order: 0 } as const;

function modules(): ConstructorModule[] {
  return [
    {
      id: 1,
      name: 'Основы',
      course_id: 7,
      sort_order: 0,
      status: 'process',
      is_published: false,
      published_at: null,
      lessons: [{ ...scormItem, type: 'lesson', kind: 'scorm' }],
      tests: [],
    },
  ];
}

const version = (over: Partial<ScormPackageInfo> = {}): ScormPackageInfo => ({
  version: 2,
  standard: '2004',
  edition: '3rd',
  title: 'Охрана труда: вводный курс',
  scos: [
    { identifier: 'a', title: 'Введение' },
    { identifier: 'b', title: 'Правила' },
    { identifier: 'c', title: 'Итоги' },
  ],
  mastery_score: 80,
  original_filename: 'ohrana-truda-v2.zip',
  size: 5 * 1024 * 1024,
  files: 42,
  uploaded_at: '2026-11-20T09:30:00.000Z',
  uploaded_by: 'Васильева Елена',
  learners: 12,
  ...over,
});

let restore: () => void = () => {};
afterEach(() => {
  restore();
  resetToasts();
});

function setup(initial: ScormPackageInfo[], routes: Record<string, Handler> = {}) {
  let versions = initial;
  const mock = mockHttp({
    'GET /api/check-auth': { status: 200, data: authorUser },
    'GET /api/courses/7': ok({ course: constructorCourse() }),
    'GET /api/courses/7/modules': () => ok({ items: modules() }),
    'GET /api/courses/7/lessons/15': () =>
      ok({ lesson: { ...scormItem, type: 'lesson', kind: 'scorm', description: '', contents: [] } }),
    'GET /api/courses/7/lessons/15/scorm': () => ok({ versions }),
    ...routes,
  });
  restore = mock.restore;
  const setVersions = (next: ScormPackageInfo[]) => (versions = next);
  // The .zip filter is the browser's; the page checks the name itself as well.
  const user = userEvent.setup({ delay: null, applyAccept: false });
  const view = renderRoutes(
    [{ path: '/management/constructor/:courseId/:lessonId', element: <ConstructorPage /> }],
    '/management/constructor/7/15',
  );
  return { ...view, user, requests: mock.requests, setVersions };
}

const zip = (name = 'package.zip') => new File(['PK\u0003\u0004'], name, { type: 'application/zip' });

describe('SCORM item in the constructor', () => {
  it('lists the versions, the current one first, with standard, sections, pass mark, file and learners', async () => {
    setup([
      version(),
      version({
        version: 1,
        standard: '1.2',
        edition: null,
        scos: [{ identifier: 'a', title: 'Курс' }],
        mastery_score: null,
        original_filename: 'ohrana-truda.zip',
        learners: 1,
        uploaded_by: null,
      }),
    ]);
    const list = await screen.findByRole('region', { name: 'Версии пакета' });
    const [current, first] = within(list).getAllByRole('listitem');
    expect(within(current!).getByText('Версия 2')).toBeInTheDocument();
    expect(within(current!).getByText('Текущая')).toBeInTheDocument();
    expect(within(current!).getByText('SCORM 2004 3rd Edition · 3 раздела · Проходной балл: 80%')).toBeInTheDocument();
    expect(within(current!).getByText('12 учеников')).toBeInTheDocument();
    expect(within(current!).getByText(/^ohrana-truda-v2\.zip · 5 МБ · 42 файла$/)).toBeInTheDocument();
    expect(within(current!).getByText(/^Загружен \d\d\.\d\d\.2026 \d\d:\d\d, Васильева Елена$/)).toBeInTheDocument();
    expect(within(first!).getByText('SCORM 1.2 · 1 раздел')).toBeInTheDocument();
    expect(within(first!).getByText('1 ученик')).toBeInTheDocument();
    expect(within(first!).queryByText('Текущая')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Загрузить новую версию' })).toBeInTheDocument();
    expect(screen.getByText(/Результаты учеников сохраняются/)).toBeInTheDocument();
    // a SCORM item has no blocks to edit
    expect(screen.queryByRole('button', { name: 'Добавить блок' })).not.toBeInTheDocument();
  });

  it('shows the server’s refusal of a package in place, and nothing is listed', async () => {
    const refusal = 'В пакете нет файла imsmanifest.xml (ни в корне архива, ни в единственной папке верхнего уровня)';
    const { user, requests } = setup([], {
      'POST /api/courses/7/lessons/15/scorm': {
        status: 422,
        data: { result: { success: false, message: refusal } },
      },
    });
    const card = await screen.findByRole('region', { name: 'Загрузка пакета' });
    expect(within(card).getByText(/Пакет еще не загружен/)).toBeInTheDocument();
    await user.upload(within(card).getByLabelText('Загрузить SCORM-пакет'), zip());
    expect(await within(card).findByRole('alert')).toHaveTextContent(refusal);
    const sent = requests.find((r) => r.method === 'POST' && r.url === '/api/courses/7/lessons/15/scorm');
    expect(sent?.body).toBeInstanceOf(FormData);
    expect((sent?.body as FormData).get('file')).toBeInstanceOf(File);
    expect(screen.queryByRole('region', { name: 'Версии пакета' })).not.toBeInTheDocument();
  });

  it('refuses a file that is not a .zip without sending it', async () => {
    const { user, requests } = setup([]);
    const card = await screen.findByRole('region', { name: 'Загрузка пакета' });
    await user.upload(within(card).getByLabelText('Загрузить SCORM-пакет'), zip('course.pdf'));
    expect(await within(card).findByRole('alert')).toHaveTextContent(
      'Файл не является ZIP-архивом. Загрузите SCORM-пакет в формате .zip',
    );
    expect(requests.some((r) => r.method === 'POST')).toBe(false);
  });

  it('an upload adds the new version on top and says so', async () => {
    const first = version({ version: 1, learners: 3 });
    const second = version({ version: 2, learners: 0 });
    const { user, setVersions } = setup([first], {
      'POST /api/courses/7/lessons/15/scorm': () => {
        setVersions([second, first]);
        return ok({ message: 'Загружена новая версия SCORM-пакета', package: second });
      },
    });
    const card = await screen.findByRole('region', { name: 'Загрузка пакета' });
    await screen.findByText('Версия 1');
    await user.upload(within(card).getByLabelText('Загрузить новую версию'), zip());
    expect(await screen.findByText('Загружена новая версия SCORM-пакета')).toBeInTheDocument();
    const list = screen.getByRole('region', { name: 'Версии пакета' });
    await waitFor(() =>
      expect(
        within(list)
          .getAllByRole('listitem')
          .map((li) => li.textContent),
      ).toEqual([expect.stringContaining('Версия 2'), expect.stringContaining('Версия 1')]),
    );
  });

  it('publishing without a package shows the server’s refusal and the switch goes back', async () => {
    const { user } = setup([], {
      'PUT /api/courses/7/lessons/15': {
        status: 422,
        data: { result: { success: false, message: 'Сначала загрузите SCORM-пакет, затем опубликуйте его' } },
      },
    });
    const toggle = await screen.findByRole('switch', { name: 'Статус урока' });
    await user.click(toggle);
    expect(await screen.findByText('Сначала загрузите SCORM-пакет, затем опубликуйте его')).toBeInTheDocument();
    await waitFor(() => expect(toggle).not.toBeChecked());
  });
});
