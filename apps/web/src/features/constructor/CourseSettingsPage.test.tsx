import type { AuthUser, ConstructorCourse } from '@lms/contract';
import { configure, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { mockHttp, type MockReply, type RecordedRequest } from '../../test/http';
import { renderRoutes, resetToasts } from '../../test/render';
import CourseSettingsPage from './CourseSettingsPage';

configure({ asyncUtilTimeout: 5000 });

const author: AuthUser = {
  authenticated: true,
  id: 2,
  name: 'Васильева Елена',
  first_name: 'Елена',
  last_name: 'Васильева',
  must_change_password: false,
  email: 'author@company.ru',
  role: 'author',
  roles_ru: 'Автор курсов',
  permissions: ['learning', 'profile', 'catalogue.manage', 'constructor.manage'],
};

const course: ConstructorCourse = {
  id: 7,
  title: 'Продажи',
  description: '',
  image: null,
  is_published: true,
  has_deadline: false,
  deadline_type: 'from_enrollment',
  deadline_value: 30,
  deadline_unit: 'days',
  deadline_warning_days: 3,
  has_recurrence: false,
  recurrence_value: 365,
  recurrence_unit: 'days',
  accessibility: 'everyone',
};

let restore: () => void = () => {};
afterEach(() => {
  restore();
  resetToasts();
});

function setup(user: AuthUser = author, courseReply?: MockReply) {
  let saved: RecordedRequest | undefined;
  const mock = mockHttp({
    'GET /api/check-auth': { status: 200, data: user },
    'GET /api/courses/7': courseReply ?? { status: 200, data: { result: { success: true, course } } },
    'PUT /api/courses/7': (request) => {
      saved = request;
      return {
        status: 200,
        data: {
          result: {
            success: true,
            message: 'Настройки курса успешно сохранены',
            course: { ...course, ...(request.body as object) },
          },
        },
      };
    },
  });
  restore = mock.restore;
  renderRoutes(
    [{ path: '/management/constructor/:courseId/settings', element: <CourseSettingsPage /> }],
    '/management/constructor/7/settings',
  );
  return { user: userEvent.setup({ delay: null }), requests: mock.requests, saved: () => saved };
}

describe('CourseSettingsPage', { timeout: 20_000 }, () => {
  it('a missing course: «Курс не найден» once (no toast), with the way to the list of courses (issue 30)', async () => {
    setup(author, { status: 404, data: { result: { success: false, message: 'Курс не найден' } } });
    expect(await screen.findByRole('heading', { level: 1, name: 'Курс не найден' })).toBeInTheDocument();
    expect(screen.getAllByText(/Курс не найден/)).toHaveLength(1);
    expect(screen.getByRole('link', { name: 'К списку курсов' })).toHaveAttribute('href', '/management');
  });

  it('shows «Доступ запрещен» to a learner', async () => {
    setup({ ...author, role: 'learner', permissions: ['learning', 'profile'] });
    expect(await screen.findByRole('heading', { name: 'Доступ запрещен' })).toBeInTheDocument();
  });

  it('shows the values only while their switch is on; empty or 0 becomes 1 on blur; saves', async () => {
    const { user, saved } = setup();
    const deadline = await screen.findByRole('switch', { name: 'Ограничить срок прохождения' });
    expect(screen.queryByRole('textbox', { name: /Срок, дней/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('textbox', { name: /Повторять каждые/ })).not.toBeInTheDocument();

    await user.click(deadline);
    const days = screen.getByRole('textbox', { name: /Срок, дней/ });
    const warning = screen.getByRole('textbox', { name: /Предупредить за/ });
    expect(days).toHaveValue('30');
    await user.clear(days);
    await user.type(days, '1234');
    expect(days).toHaveValue('123');
    await user.clear(days);
    await user.tab();
    expect(days).toHaveValue('1');
    await user.clear(warning);
    await user.type(warning, '0');
    await user.tab();
    expect(warning).toHaveValue('1');
    await user.clear(days);
    await user.type(days, '10');
    await user.click(screen.getByRole('radio', { name: 'С начала прохождения' }));

    await user.click(screen.getByRole('switch', { name: 'Проходить курс повторно' }));
    expect(screen.getByRole('textbox', { name: /Повторять каждые/ })).toHaveValue('365');
    await user.click(screen.getByRole('switch', { name: 'Ограничить срок прохождения' }));
    expect(screen.queryByRole('textbox', { name: /Срок, дней/ })).not.toBeInTheDocument();
    await user.click(screen.getByRole('switch', { name: 'Ограничить срок прохождения' }));
    expect(screen.getByRole('textbox', { name: /Срок, дней/ })).toHaveValue('10');

    const access = screen.getByRole('radiogroup', { name: 'Кто видит курс' });
    await user.click(within(access).getByRole('radio', { name: 'Только назначенные ученики' }));

    await user.click(screen.getByRole('button', { name: 'Сохранить' }));
    expect(await screen.findByText('Настройки курса успешно сохранены')).toBeInTheDocument();
    expect(saved()?.body).toEqual({
      has_deadline: true,
      deadline_type: 'from_start',
      deadline_value: 10,
      deadline_unit: 'days',
      deadline_warning_days: 1,
      has_recurrence: true,
      recurrence_value: 365,
      recurrence_unit: 'days',
      accessibility: 'enrolled_only',
    });
  });
});
