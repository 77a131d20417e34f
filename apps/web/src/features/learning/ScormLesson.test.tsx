import type { ScormLearnerState } from '@lms/contract';
import { act, configure, screen, waitFor, within } from '@testing-library/react';
import { StrictMode } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { mockHttp, type RecordedRequest } from '../../test/http';
import { renderRoutes, resetToasts } from '../../test/render';
import { setupUser } from '../../test/user';
import { courseModules, lessonContents } from './fixtures';
import LessonPage from './LessonPage';

/* A SCORM lesson on the learner's side (issue 34): the player, its messages, the package's sections. */

configure({ asyncUtilTimeout: 5000 });

const SANDBOX = 'allow-scripts allow-forms allow-popups';
const ok = (data: Record<string, unknown>) => ({ status: 200, data: { result: { success: true, ...data } } });

const oneSco: ScormLearnerState = {
  lesson_id: 22,
  name: 'Практика',
  version: 1,
  standard: '1.2',
  scos: [{ identifier: 'sco-1', title: 'Курс', status: 'in_progress', score: 85 }],
  status: 'in_progress',
  score: 85,
  completed_at: null,
};

let restore: () => void = () => {};
afterEach(() => {
  restore();
  resetToasts();
});

function setup(initial: ScormLearnerState) {
  let state = initial;
  const mock = mockHttp({
    'GET /api/courses/5/lessons/22/contents': () => ({
      status: 200,
      data: { result: lessonContents({ kind: 'scorm', contents: [], started_at: '2026-03-03T09:20:00.000Z' }) },
    }),
    'GET /api/courses/5/modules-structured': ok({ modules: courseModules }),
    'GET /api/courses/5/lessons/22/scorm/state': () => ok({ scorm: state }),
    'POST /api/courses/5/lessons/22/scorm/launch': (request: RecordedRequest) => {
      const sco = (request.body as { sco?: string }).sco ?? state.scos[0]!.identifier;
      return ok({ url: `https://content.example/scorm/t-${sco}/index.html`, origin: 'null', sandbox: SANDBOX, sco });
    },
  });
  restore = mock.restore;
  // Strict mode runs effects twice: the launch must still happen once.
  renderRoutes(
    [
      {
        path: '/courses/:courseId/lesson/:lessonId',
        element: (
          <StrictMode>
            <LessonPage />
          </StrictMode>
        ),
      },
    ],
    '/courses/5/lesson/22',
  );
  const count = (method: string, url: string) =>
    mock.requests.filter((r) => r.method === method && r.url === url).length;
  return {
    requests: mock.requests,
    count,
    setState: (next: ScormLearnerState) => (state = next),
    ue: setupUser(),
  };
}

const frame = () => screen.findByTitle<HTMLIFrameElement>('SCORM-пакет: Практика');

/** Lets the page's answers and refetches run (the mocked calls answer within microtasks). */
const settle = () => act(() => new Promise<void>((resolve) => setTimeout(resolve, 0)));

function post(source: MessageEventSource | null, origin: string, data: unknown) {
  act(() => {
    window.dispatchEvent(new MessageEvent('message', { source, origin, data }));
  });
}

describe('SCORM lesson page', () => {
  it('plays the package in a frame sandboxed as the launch says, launched once, without the lesson’s start and complete', async () => {
    const { count } = setup(oneSco);
    const iframe = await frame();
    expect(iframe).toHaveAttribute('src', 'https://content.example/scorm/t-sco-1/index.html');
    expect(iframe.getAttribute('sandbox')).toBe(SANDBOX);
    expect(iframe).toHaveAttribute('allow', 'fullscreen');
    expect(screen.getByTestId('scorm-status')).toHaveTextContent('Статус: В процессе');
    expect(screen.getByText('Результат: 85%')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'На весь экран' })).toBeInTheDocument();
    await settle();
    expect(count('POST', '/api/courses/5/lessons/22/scorm/launch')).toBe(1);
    expect(screen.queryByRole('button', { name: 'Отметить урок завершенным' })).not.toBeInTheDocument();
    expect(screen.queryByRole('dialog', { name: 'Начало урока' })).not.toBeInTheDocument();
    // one section: no list of sections
    expect(screen.queryByRole('navigation', { name: 'Разделы пакета' })).not.toBeInTheDocument();
    // the neighbours stay as on any lesson
    expect(screen.getByRole('button', { name: 'Содержание' })).toBeInTheDocument();
  });

  it('a commit from the frame refreshes the state and the course; messages from elsewhere are ignored', async () => {
    const { count, setState } = setup(oneSco);
    const iframe = await frame();
    await screen.findByText('Результат: 85%');
    await settle();
    const states = count('GET', '/api/courses/5/lessons/22/scorm/state');
    const contents = count('GET', '/api/courses/5/lessons/22/contents');
    setState({ ...oneSco, status: 'completed', score: 100, completed_at: '2026-03-03T09:40:00.000Z' });

    const commit = { type: 'lms-scorm-commit' };
    post(window, 'null', commit); // another window (the page itself)
    post(iframe.contentWindow, 'https://evil.example', commit); // the frame, but not the launch's origin
    post(iframe.contentWindow, 'null', { type: 'something-else' }); // the frame, another message
    post(null, 'null', commit); // no source at all
    await settle();
    expect(count('GET', '/api/courses/5/lessons/22/scorm/state')).toBe(states);
    expect(screen.getByTestId('scorm-status')).toHaveTextContent('В процессе');

    post(iframe.contentWindow, 'null', commit);
    await waitFor(() => expect(screen.getByTestId('scorm-status')).toHaveTextContent('Статус: Пройден'));
    expect(screen.getByText('Результат: 100%')).toBeInTheDocument();
    expect(count('GET', '/api/courses/5/lessons/22/contents')).toBeGreaterThan(contents);
  });

  it('lists a multi-SCO package’s sections in order with their status, each opening its SCO', async () => {
    const { ue, requests } = setup({
      ...oneSco,
      scos: [
        { identifier: 'intro', title: 'Введение', status: 'completed', score: 100 },
        { identifier: 'quiz', title: 'Проверка знаний', status: 'not_started', score: null },
        { identifier: 'end', title: 'Итоги', status: 'failed', score: 40 },
      ],
      score: 70,
    });
    const nav = await screen.findByRole('navigation', { name: 'Разделы пакета' });
    const items = within(nav).getAllByRole('listitem');
    expect(items.map((li) => li.textContent)).toEqual([
      'ВведениеПройден · 100%',
      'Проверка знанийНе начат',
      'ИтогиНе пройден · 40%',
    ]);
    await waitFor(() =>
      expect(within(nav).getByRole('button', { name: /Введение/ })).toHaveAttribute('aria-current', 'step'),
    );
    await ue.click(within(nav).getByRole('button', { name: /Проверка знаний/ }));
    await waitFor(async () =>
      expect(await frame()).toHaveAttribute('src', 'https://content.example/scorm/t-quiz/index.html'),
    );
    const launches = requests.filter((r) => r.url === '/api/courses/5/lessons/22/scorm/launch');
    expect(launches.map((r) => r.body)).toEqual([{}, { sco: 'quiz' }]);
    expect(within(nav).getByRole('button', { name: /Проверка знаний/ })).toHaveAttribute('aria-current', 'step');
  });
});
