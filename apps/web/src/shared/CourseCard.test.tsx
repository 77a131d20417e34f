import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { courseCard } from '../test/fixtures';
import { renderAt } from '../test/render';
import { CourseCard, type CourseCardCourse } from './CourseCard';

// Local time, as the browser shows it.
const now = new Date(2026, 2, 10, 12, 0);
const inDays = (days: number) => new Date(2026, 2, 10 + days, 12, 0).toISOString();

function renderCard(over: Partial<CourseCardCourse>) {
  renderAt(<CourseCard course={{ ...courseCard({ id: 1, name: 'Охрана труда' }), ...over }} now={now} />);
}

describe('CourseCard deadline (coloured by the server’s deadline_status only)', () => {
  it("does not say 'Просрочено' for a course completed before its deadline passed", () => {
    renderCard({ deadline: inDays(-3), deadline_status: 'in_order', progress: 100, complete: true });
    expect(screen.getByText('Курс пройден')).toBeInTheDocument();
    expect(screen.queryByText('Просрочено')).not.toBeInTheDocument();
    expect(screen.queryByTestId('course-deadline')).not.toBeInTheDocument();
  });

  it('shows no countdown for a completed course whose deadline is still ahead', () => {
    renderCard({ deadline: inDays(5), deadline_status: 'in_order', progress: 100, complete: true });
    expect(screen.getByText('Курс пройден')).toBeInTheDocument();
    expect(screen.queryByText(/Осталось/)).not.toBeInTheDocument();
    expect(screen.queryByTestId('course-deadline')).not.toBeInTheDocument();
  });

  it("says 'Просрочено' in red when the server says overdue, whatever the local clock says", () => {
    renderCard({ deadline: inDays(1), deadline_status: 'overdue' });
    const deadline = screen.getByTestId('course-deadline');
    expect(deadline).toHaveTextContent(/^Просрочено$/);
    expect(deadline).toHaveAttribute('data-deadline-tone', 'overdue');
  });

  it('takes the almost-overdue colour from the server and the days left from the date', () => {
    renderCard({ deadline: inDays(2), deadline_status: 'almost_overdue' });
    const deadline = screen.getByTestId('course-deadline');
    expect(deadline).toHaveTextContent('Осталось 2 дня');
    expect(deadline).toHaveAttribute('data-deadline-tone', 'almost_overdue');
  });

  it('keeps a deadline without a status neutral', () => {
    renderCard({ deadline: inDays(21), deadline_status: null });
    const deadline = screen.getByTestId('course-deadline');
    expect(deadline).toHaveTextContent('Осталось 21 день');
    expect(deadline).toHaveAttribute('data-deadline-tone', 'normal');
  });
});

describe('CourseCard counters (Russian plural forms: "X/Y" reads "X из Y")', () => {
  it.each([
    [{ completed: 0, total: 1 }, '0/1 лекции', { completed: 1, total: 1 }, '1/1 теста'],
    [{ completed: 2, total: 3 }, '2/3 лекций', { completed: 0, total: 4 }, '0/4 тестов'],
    [{ completed: 5, total: 21 }, '5/21 лекции', { completed: 3, total: 11 }, '3/11 тестов'],
    [{ completed: 1, total: 5 }, '1/5 лекций', { completed: 7, total: 101 }, '7/101 теста'],
  ])('%o → %s, %o → %s', (lessons, lessonsText, test, testsText) => {
    renderCard({ lessons, test });
    expect(screen.getByText(lessonsText)).toBeInTheDocument();
    expect(screen.getByText(testsText)).toBeInTheDocument();
  });
});
