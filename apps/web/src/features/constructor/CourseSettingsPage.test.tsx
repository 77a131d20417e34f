import type { AuthUser } from '@lms/contract';
import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { mockHttp, type MockReply, type RecordedRequest } from '../../test/http';
import { renderRoutes, resetToasts } from '../../test/render';
import CourseSettingsPage from './CourseSettingsPage';
import { authorUser, constructorCourse, courseAssignment } from '../../test/fixtures';

configure({ asyncUtilTimeout: 5000 });

const author = authorUser;

const course = constructorCourse({ is_published: true });

let restore: () => void = () => {};
afterEach(() => {
  restore();
  resetToasts();
});

function setup(routes: Record<string, MockReply> = {}, user: AuthUser = author) {
  let saved: RecordedRequest | undefined;
  const mock = mockHttp({
    'GET /api/check-auth': { status: 200, data: user },
    'GET /api/courses/7': { status: 200, data: { result: { success: true, course } } },
    'GET /api/courses/7/assignment': {
      status: 200,
      data: { result: { success: true, assignment: courseAssignment() } },
    },
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
    ...routes,
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
    setup({ 'GET /api/courses/7': { status: 404, data: { result: { success: false, message: 'Курс не найден' } } } });
    expect(await screen.findByRole('heading', { level: 1, name: 'Курс не найден' })).toBeInTheDocument();
    expect(screen.getAllByText(/Курс не найден/)).toHaveLength(1);
    expect(screen.getByRole('link', { name: 'К списку курсов' })).toHaveAttribute('href', '/management');
  });

  it('shows «Доступ запрещен» to a learner', async () => {
    setup({}, { ...author, role: 'learner', permissions: ['learning', 'profile'] });
    expect(await screen.findByRole('heading', { name: 'Доступ запрещен' })).toBeInTheDocument();
  });

  it('shows the values only while their switch is on and saves them', async () => {
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
    await user.clear(warning);
    await user.type(warning, '1');
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

  it('refuses what makes no sense with a message next to the field, and sends nothing (issue 30)', async () => {
    const { user, saved } = setup();
    await user.click(await screen.findByRole('switch', { name: 'Ограничить срок прохождения' }));
    await user.click(screen.getByRole('switch', { name: 'Проходить курс повторно' }));
    const days = screen.getByRole('textbox', { name: /Срок, дней/ });
    const warning = screen.getByRole('textbox', { name: /Предупредить за/ });
    const recurrence = screen.getByRole('textbox', { name: /Повторять каждые/ });

    // 0 is not rewritten to 1: it stays, with the reason beside it
    await user.clear(warning);
    await user.type(warning, '0');
    await user.tab();
    expect(warning).toHaveValue('0');
    expect(warning).toHaveAccessibleErrorMessage('Значение от 1 до 999');
    // an empty field stays empty as well
    await user.clear(recurrence);
    await user.tab();
    expect(recurrence).toHaveValue('');
    expect(recurrence).toHaveAccessibleErrorMessage('Значение от 1 до 999');

    // a warning window longer than the deadline, a recurrence shorter than it
    await user.clear(days);
    await user.type(days, '10');
    await user.clear(warning);
    await user.type(warning, '15');
    await user.type(recurrence, '7');
    expect(warning).toHaveAccessibleErrorMessage('Предупреждение не может быть дольше срока прохождения');
    expect(recurrence).toHaveAccessibleErrorMessage('Период повторения не может быть короче срока прохождения');
    expect(days).not.toHaveAttribute('aria-invalid', 'true');

    await user.click(screen.getByRole('button', { name: 'Сохранить' }));
    expect(saved()).toBeUndefined();
    expect(screen.queryByText('Настройки курса успешно сохранены')).toBeNull();

    // fixed: the messages go and the settings are sent
    await user.clear(warning);
    await user.type(warning, '10');
    await user.clear(recurrence);
    await user.type(recurrence, '10');
    expect(warning).not.toHaveAttribute('aria-invalid', 'true');
    expect(recurrence).not.toHaveAttribute('aria-invalid', 'true');
    await user.click(screen.getByRole('button', { name: 'Сохранить' }));
    expect(await screen.findByText('Настройки курса успешно сохранены')).toBeInTheDocument();
    expect(saved()?.body).toMatchObject({ deadline_value: 10, deadline_warning_days: 10, recurrence_value: 10 });
  });

  it('does not check the values behind a switch that is off, and sends the stored ones', async () => {
    const { user, saved } = setup();
    await user.click(await screen.findByRole('switch', { name: 'Проходить курс повторно' }));
    const recurrence = screen.getByRole('textbox', { name: /Повторять каждые/ });
    await user.clear(recurrence);
    await user.tab();
    expect(recurrence).toHaveAccessibleErrorMessage('Значение от 1 до 999');
    await user.click(screen.getByRole('switch', { name: 'Проходить курс повторно' }));
    await user.click(screen.getByRole('button', { name: 'Сохранить' }));
    expect(await screen.findByText('Настройки курса успешно сохранены')).toBeInTheDocument();
    expect(saved()?.body).toMatchObject({ has_recurrence: false, recurrence_value: 365 });
  });

  it('shows the server’s refusal next to its field', async () => {
    const { user } = setup({
      'PUT /api/courses/7': {
        status: 422,
        data: {
          result: { success: false, message: 'Период повторения не может быть короче срока прохождения' },
          errors: { recurrence_value: ['Период повторения не может быть короче срока прохождения'] },
        },
      },
    });
    await user.click(await screen.findByRole('switch', { name: 'Проходить курс повторно' }));
    await user.click(screen.getByRole('button', { name: 'Сохранить' }));
    const recurrence = screen.getByRole('textbox', { name: /Повторять каждые/ });
    await waitFor(() =>
      expect(recurrence).toHaveAccessibleErrorMessage('Период повторения не может быть короче срока прохождения'),
    );
    // typing in the field takes the server's message away
    await user.clear(recurrence);
    await user.type(recurrence, '0');
    expect(recurrence).toHaveAccessibleErrorMessage('Значение от 1 до 999');
  });
});
