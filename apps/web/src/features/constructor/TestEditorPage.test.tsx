import type { AuthUser, ConstructorModule, ConstructorTest, QuestionStatistic, TestQuestion } from '@lms/contract';
import { configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockHttp, type MockReply, type RecordedRequest } from '../../test/http';
import { renderRoutes, resetToasts } from '../../test/render';
import ConstructorPage from './ConstructorPage';
import TestEditorPage from './TestEditorPage';
import { authorUser, constructorCourse } from '../../test/fixtures';

configure({ asyncUtilTimeout: 5000 });

const author = authorUser;
const learner: AuthUser = { ...author, role: 'learner', roles_ru: 'Ученик', permissions: ['learning', 'profile'] };

const course = constructorCourse();

const test: ConstructorTest = {
  id: 40,
  name: 'Итоговый тест',
  module_id: 1,
  type: 'test',
  is_published: false,
  sort_order: 1,
  passing_score: 80,
  has_timer: true,
  timer_seconds: 900,
  has_retake_interval: false,
  retake_interval_seconds: 0,
  has_attempts_limit: true,
  max_attempts: 3,
  has_question_bank: false,
  question_bank_size: 0,
  randomize_questions: true,
  randomize_answers: false,
  show_correct_answers: true,
};

const modules: ConstructorModule[] = [
  {
    id: 1,
    name: 'Основы',
    course_id: 7,
    sort_order: 0,
    status: 'process',
    is_published: false,
    published_at: null,
    lessons: [{ id: 11, name: 'Знакомство', module_id: 1, is_published: false, sort_order: 0, type: 'lesson' }],
    tests: [{ id: 40, name: 'Итоговый тест', module_id: 1, is_published: false, sort_order: 1, type: 'test' }],
  },
];

const savedQuestion: TestQuestion = {
  id: 50,
  title: '',
  type: 'text',
  question_text: 'Столица России?',
  sort_order: 0,
  answers: [
    { id: 60, answer_text: 'Москва', is_correct: true, image_path: null },
    { id: 61, answer_text: 'Казань', is_correct: false, image_path: null },
  ],
};

type Handler = MockReply | ((request: RecordedRequest) => MockReply | Promise<MockReply>);
const ok = (data: Record<string, unknown> = {}) => ({ status: 200, data: { result: { success: true, ...data } } });

let restore: () => void = () => {};
afterEach(() => {
  restore();
  resetToasts();
  vi.restoreAllMocks();
});

function setup(path: string, opts: { user?: AuthUser; routes?: Record<string, Handler> } = {}) {
  const mock = mockHttp({
    'GET /api/check-auth': { status: 200, data: opts.user ?? author },
    'GET /api/courses/7': ok({ course }),
    'GET /api/courses/7/modules': ok({ items: modules }),
    'GET /api/courses/7/lessons/11': ok({
      lesson: { ...modules[0]!.lessons[0], description: '', kind: 'lesson', contents: [] },
    }),
    'GET /api/courses/7/tests/40': ok({ test }),
    'GET /api/admin/tests/40/questions': ok({ questions: [savedQuestion] }),
    'GET /api/admin/tests/40/statistics': ok({ attempts: 0, questions: [] }),
    ...opts.routes,
  });
  restore = mock.restore;
  const user = userEvent.setup({ delay: null });
  const view = renderRoutes(
    [
      { path: '/management/constructor/:courseId', element: <ConstructorPage /> },
      { path: '/management/constructor/:courseId/test/:testId', element: <TestEditorPage /> },
      { path: '/management/constructor/:courseId/:lessonId', element: <ConstructorPage /> },
      { path: '*', element: <div /> },
    ],
    path,
  );
  return { ...view, requests: mock.requests, user };
}

const questionCard = (n: number) => screen.findByRole('region', { name: `Вопрос ${n}` });

describe('TestEditorPage', { timeout: 20_000 }, () => {
  it('shows «Доступ запрещен» to a learner and asks for nothing', async () => {
    const { requests } = setup('/management/constructor/7/test/40', { user: learner });
    expect(await screen.findByRole('heading', { name: 'Доступ запрещен' })).toBeInTheDocument();
    expect(requests.filter((r) => r.url.startsWith('/api/courses') || r.url.startsWith('/api/admin'))).toEqual([]);
  });

  it('a missing test: «Тест не найден» once (no toasts), with the way back to the course (issue 30)', async () => {
    const gone = { status: 404, data: { result: { success: false, message: 'Тест не найден' } } };
    setup('/management/constructor/7/test/40', {
      routes: { 'GET /api/courses/7/tests/40': gone, 'GET /api/admin/tests/40/questions': gone },
    });
    expect(await screen.findByRole('heading', { name: 'Тест не найден' })).toBeInTheDocument();
    expect(screen.getAllByText(/Тест не найден/)).toHaveLength(1);
    expect(screen.getByRole('link', { name: 'К курсу' })).toHaveAttribute('href', '/management/constructor/7');
  });

  it('a test of a missing course: «Курс не найден» once, with the way to the list of courses', async () => {
    const gone = { status: 404, data: { result: { success: false, message: 'Курс не найден' } } };
    setup('/management/constructor/7/test/40', {
      routes: {
        'GET /api/courses/7': gone,
        'GET /api/courses/7/modules': gone,
        'GET /api/courses/7/tests/40': gone,
        'GET /api/admin/tests/40/questions': {
          status: 404,
          data: { result: { success: false, message: 'Тест не найден' } },
        },
      },
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'Курс не найден' })).toBeInTheDocument();
    expect(screen.getAllByText(/не найден/)).toHaveLength(1);
    expect(screen.getByRole('link', { name: 'К списку курсов' })).toHaveAttribute('href', '/management');
  });

  it('loads the test and its questions; a new question starts with 2 answers and the last cannot go', async () => {
    const { user } = setup('/management/constructor/7/test/40');
    expect(await screen.findByRole('textbox', { name: 'Название теста' })).toHaveValue('Итоговый тест');
    const first = await questionCard(1);
    expect(within(first).getByRole('textbox', { name: 'Текст вопроса 1' })).toHaveValue('Столица России?');
    expect(within(first).getByRole('textbox', { name: 'Ответ 1 вопроса 1' })).toHaveValue('Москва');
    expect(within(first).getByRole('radio', { name: 'Ответ 1 правильный' })).toBeChecked();

    await user.click(screen.getByRole('button', { name: 'Добавить вопрос' }));
    const second = await questionCard(2);
    expect(within(second).getAllByTestId('answer')).toHaveLength(2);
    await user.click(within(second).getByRole('button', { name: 'Удалить ответ 2 (Вопрос 2)' }));
    expect(within(second).getAllByTestId('answer')).toHaveLength(1);
    expect(within(second).getByRole('button', { name: 'Удалить ответ 1 (Вопрос 2)' })).toBeDisabled();
  });

  it('refuses to save while a question has no correct answer, naming the question', async () => {
    const { user, requests } = setup('/management/constructor/7/test/40');
    await questionCard(1);
    await user.click(screen.getByRole('button', { name: 'Добавить вопрос' }));
    const second = await questionCard(2);
    fireEvent.change(within(second).getByRole('textbox', { name: 'Текст вопроса 2' }), {
      target: { value: 'Сколько будет 2 + 2?' },
    });
    fireEvent.change(within(second).getByRole('textbox', { name: 'Ответ 1 вопроса 2' }), { target: { value: '4' } });
    await user.click(screen.getAllByRole('button', { name: 'Сохранить тест' })[0]!);
    expect(
      await screen.findByText('Вопрос «Сколько будет 2 + 2?»: отметьте хотя бы один правильный ответ'),
    ).toBeInTheDocument();
    expect(requests.some((r) => r.method === 'POST')).toBe(false);
  });

  it('saves the kept questions as multipart with the answer images, and toasts the success', async () => {
    let sent: FormData | undefined;
    const { user } = setup('/management/constructor/7/test/40', {
      routes: {
        'POST /api/admin/tests/40/questions': (request) => {
          sent = request.body as FormData;
          return ok({ message: 'Вопросы теста успешно сохранены!', questions: [savedQuestion] });
        },
      },
    });
    await questionCard(1);
    await user.click(screen.getByRole('button', { name: 'Добавить вопрос' }));
    const second = await questionCard(2);
    fireEvent.change(within(second).getByRole('textbox', { name: 'Текст вопроса 2' }), {
      target: { value: 'Какой логотип наш?' },
    });
    await user.click(within(second).getByRole('radio', { name: 'Ответы-изображения' }));
    const png = new File([new Uint8Array([137, 80, 78, 71])], 'logo.png', { type: 'image/png' });
    const inputs = second.ownerDocument.querySelectorAll<HTMLInputElement>('input[type="file"]');
    expect(inputs.length).toBeGreaterThan(0);
    await user.upload(inputs[0]!, png);
    await user.click(within(second).getByRole('radio', { name: 'Ответ 1 правильный' }));
    // an empty question at the end is dropped
    await user.click(screen.getByRole('button', { name: 'Добавить вопрос' }));
    await questionCard(3);

    await user.click(screen.getAllByRole('button', { name: 'Сохранить тест' })[1]!);
    expect(await screen.findByText('Вопросы теста успешно сохранены!')).toBeInTheDocument();
    expect(sent).toBeInstanceOf(FormData);
    const questions = JSON.parse(String(sent!.get('questions'))) as {
      id: number | string;
      type: string;
      question_text: string;
      answers: { id: number | string; answer_text: string; is_correct: boolean }[];
    }[];
    expect(questions.map((q) => q.question_text)).toEqual(['Столица России?', 'Какой логотип наш?']);
    const image = questions[1]!;
    expect(image.type).toBe('image');
    expect(image.answers).toHaveLength(1);
    expect(image.answers[0]).toMatchObject({ answer_text: '', is_correct: true });
    const field = `answer_image.${image.id}.${image.answers[0]!.id}`;
    expect(sent!.get(field)).toBeInstanceOf(File);
  });

  it('shows the error toast when the save fails', async () => {
    const { user } = setup('/management/constructor/7/test/40', {
      routes: { 'POST /api/admin/tests/40/questions': { status: 500, data: {} } },
    });
    await questionCard(1);
    await user.click(screen.getAllByRole('button', { name: 'Сохранить тест' })[0]!);
    expect(await screen.findByText('Произошла ошибка при сохранении вопросов.')).toBeInTheDocument();
  });

  it('deletes the test after the confirmation and goes to /management', async () => {
    const { user, router, requests } = setup('/management/constructor/7/test/40', {
      routes: { 'DELETE /api/courses/tests/40': ok({ message: 'Тест успешно удален' }) },
    });
    await user.click(await screen.findByRole('button', { name: 'Удалить тест' }));
    const dialog = await screen.findByRole('dialog', { name: 'Удаление теста' });
    expect(within(dialog).getByText('Удалить тест «Итоговый тест» со всеми вопросами?')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Удалить' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/management'));
    expect(await screen.findByText('Тест успешно удален')).toBeInTheDocument();
    expect(requests.filter((r) => r.method === 'DELETE').map((r) => r.url)).toEqual(['/api/courses/tests/40']);
  });

  it('edits the settings: hh:mm:ss mask, percent clamped to 100, bank locks random order', async () => {
    let body: unknown;
    const { user } = setup('/management/constructor/7/test/40', {
      routes: {
        'PUT /api/courses/7/tests/40': (request) => {
          body = request.body;
          return ok({ message: 'Настройки теста успешно сохранены', item: test });
        },
      },
    });
    await user.click(await screen.findByRole('button', { name: 'Настройки теста' }));
    const dialog = await screen.findByRole('dialog', { name: 'Настройки теста' });
    const percent = within(dialog).getByRole('textbox', { name: /Проходной балл/ });
    expect(percent).toHaveValue('80');
    await user.clear(percent);
    await user.type(percent, '150');
    expect(percent).toHaveValue('100');

    const timer = within(dialog).getByRole('textbox', { name: /Время на тест/ });
    expect(timer).toHaveValue('00:15:00');
    await user.clear(timer);
    await user.type(timer, '017545');
    expect(timer).toHaveValue('01:59:45');

    const random = within(dialog).getByRole('switch', { name: 'Случайный порядок вопросов' });
    expect(random).toBeChecked();
    await user.click(within(dialog).getByRole('switch', { name: 'Банк вопросов' }));
    const locked = within(dialog).getByRole('switch', { name: 'Случайный порядок вопросов' });
    expect(locked).not.toBeChecked();
    expect(locked).toBeDisabled();
    await user.type(within(dialog).getByRole('textbox', { name: /Вопросов из банка/ }), '5');

    await user.click(within(dialog).getByRole('button', { name: 'Сохранить настройки' }));
    expect(await screen.findByText('Настройки теста успешно сохранены')).toBeInTheDocument();
    expect(body).toMatchObject({
      passing_score: 100,
      has_timer: true,
      timer_seconds: 7185,
      has_question_bank: true,
      question_bank_size: 5,
      randomize_questions: false,
    });
  });
});

describe('question statistics for authors', { timeout: 20_000 }, () => {
  const secondQuestion: TestQuestion = {
    ...savedQuestion,
    id: 51,
    question_text: 'Сколько будет 2 + 2?',
    sort_order: 1,
    answers: [
      { id: 62, answer_text: '4', is_correct: true, image_path: null },
      { id: 63, answer_text: '5', is_correct: false, image_path: null },
    ],
  };
  const figures = (id: number, over: Partial<QuestionStatistic> = {}): QuestionStatistic => ({
    question_id: id,
    question_text: `Вопрос ${id}`,
    asked: 12,
    answered: 12,
    correct_percent: 75,
    top_wrong_option: null,
    average_seconds: 14,
    ...over,
  });
  const routes = (attempts: number, questions: QuestionStatistic[]) => ({
    'GET /api/admin/tests/40/questions': ok({ questions: [savedQuestion, secondQuestion] }),
    'GET /api/admin/tests/40/statistics': ok({ attempts, questions }),
  });

  it('shows the figures on the question they belong to, and the header with the attempts', async () => {
    setup('/management/constructor/7/test/40', {
      routes: routes(12, [
        figures(51, {
          answered: 10,
          correct_percent: 30,
          top_wrong_option: { id: 63, text: '5', count: 5 },
          average_seconds: 65,
        }),
        figures(50, { answered: 12, correct_percent: 75, average_seconds: 14 }),
      ]),
    });
    expect(await screen.findByText('Статистика по 12 завершённым попыткам')).toBeInTheDocument();
    const first = within(await questionCard(1)).getByRole('group', { name: 'Статистика вопроса 1' });
    expect(within(first).getByText('Ответили: 12')).toBeInTheDocument();
    expect(within(first).getByText('Верно: 75%')).toBeInTheDocument();
    expect(within(first).getByText('Среднее время ответа: 14 с')).toBeInTheDocument();
    expect(within(first).queryByText(/Чаще всего ошибочно/)).not.toBeInTheDocument();

    const second = within(await questionCard(2)).getByRole('group', { name: 'Статистика вопроса 2' });
    expect(within(second).getByText('Ответили: 10')).toBeInTheDocument();
    expect(within(second).getByText('Верно: 30%')).toBeInTheDocument();
    expect(within(second).getByText('Чаще всего ошибочно: «5» (5)')).toBeInTheDocument();
    expect(within(second).getByText('Среднее время ответа: 1 мин 5 с')).toBeInTheDocument();
    expect(screen.queryByText(/Удалённые вопросы/)).not.toBeInTheDocument();
  });

  it('shows nothing with 0 finished attempts', async () => {
    const { requests } = setup('/management/constructor/7/test/40', { routes: routes(0, []) });
    await questionCard(2);
    await waitFor(() => expect(requests.some((r) => r.url === '/api/admin/tests/40/statistics')).toBe(true));
    expect(screen.queryByText(/Статистика по/)).not.toBeInTheDocument();
    expect(screen.queryByTestId('question-statistics')).not.toBeInTheDocument();
    expect(screen.queryByText(/Ответили/)).not.toBeInTheDocument();
    expect(screen.queryByText(/Удалённые вопросы/)).not.toBeInTheDocument();
  });

  it('lists the figures of deleted questions in a collapsed section with their stored text', async () => {
    const { user } = setup('/management/constructor/7/test/40', {
      routes: routes(1, [
        figures(50, { answered: 1, correct_percent: 100 }),
        figures(99, {
          question_text: 'Старый вопрос о скидках',
          answered: 1,
          correct_percent: 0,
          top_wrong_option: { id: 7, text: 'Сразу дать скидку', count: 1 },
          average_seconds: 3,
        }),
      ]),
    });
    expect(await screen.findByText('Статистика по 1 завершённой попытке')).toBeInTheDocument();
    const toggle = await screen.findByRole('button', { name: 'Удалённые вопросы (1)' });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    // Collapsed: the stored text is not shown (the panel may not even be mounted yet).
    const stored = screen.queryByText('Старый вопрос о скидках');
    if (stored) expect(stored).not.toBeVisible();
    await user.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    await waitFor(() => expect(screen.getByText('Старый вопрос о скидках')).toBeVisible());
    const deleted = screen.getByRole('group', { name: 'Статистика удалённого вопроса' });
    expect(within(deleted).getByText('Верно: 0%')).toBeInTheDocument();
    expect(within(deleted).getByText('Чаще всего ошибочно: «Сразу дать скидку» (1)')).toBeInTheDocument();
    expect(within(deleted).getByText('Среднее время ответа: 3 с')).toBeInTheDocument();
    // the deleted question is not shown on a card
    expect(screen.getAllByRole('group', { name: /^Статистика вопроса/ })).toHaveLength(1);
  });

  it('reloads the figures after «Сохранить тест»', async () => {
    let calls = 0;
    const { user } = setup('/management/constructor/7/test/40', {
      routes: {
        ...routes(1, []),
        'GET /api/admin/tests/40/statistics': () => {
          calls += 1;
          return ok({ attempts: calls, questions: [figures(50)] });
        },
        'POST /api/admin/tests/40/questions': ok({
          message: 'Вопросы теста успешно сохранены!',
          questions: [savedQuestion],
        }),
      },
    });
    expect(await screen.findByText('Статистика по 1 завершённой попытке')).toBeInTheDocument();
    await user.click(screen.getAllByRole('button', { name: 'Сохранить тест' })[0]!);
    expect(await screen.findByText('Статистика по 2 завершённым попыткам')).toBeInTheDocument();
  });
});

describe('creating a test from the lesson-type dialog', { timeout: 20_000 }, () => {
  it('opens «Настройте тест», posts every setting and opens the new test', async () => {
    let body: Record<string, unknown> | undefined;
    const created = { ...test, id: 41, name: 'Новый тест', sort_order: 2 };
    const { user, router } = setup('/management/constructor/7/11', {
      routes: {
        'POST /api/courses/tests': (request) => {
          body = request.body as Record<string, unknown>;
          return { status: 201, data: { result: { success: true, message: 'Тест успешно создан', item: created } } };
        },
        'GET /api/courses/7/tests/41': ok({ test: created }),
        'GET /api/admin/tests/41/questions': ok({ questions: [] }),
      },
    });
    await user.click((await screen.findAllByRole('button', { name: /Добавить урок/ }))[0]!);
    const typeDialog = await screen.findByRole('dialog', { name: 'Выберите тип урока' });
    await user.click(within(typeDialog).getByRole('radio', { name: /Тест/ }));
    await user.click(within(typeDialog).getByRole('button', { name: 'Далее' }));
    const dialog = await screen.findByRole('dialog', { name: 'Настройте тест' });
    expect(within(dialog).getByRole('textbox', { name: 'Название теста' })).toHaveValue('Новый тест');
    await user.click(within(dialog).getByRole('button', { name: 'Добавить тест' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/management/constructor/7/test/41'));
    expect(await screen.findByText('Тест успешно создан')).toBeInTheDocument();
    expect(body).toEqual({
      name: 'Новый тест',
      course_id: 7,
      module_id: 1,
      sort_order: 2,
      passing_score: 0,
      has_timer: false,
      timer_seconds: 0,
      has_retake_interval: false,
      retake_interval_seconds: 0,
      has_attempts_limit: false,
      max_attempts: 1,
      has_question_bank: false,
      question_bank_size: 0,
      randomize_questions: false,
      randomize_answers: false,
      show_correct_answers: false,
    });
  });
});
