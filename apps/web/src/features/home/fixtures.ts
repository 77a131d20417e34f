import type { HomeCategory, StartedLesson } from '@lms/contract';
import { courseCard as homeCourse, learnerUser } from '../../test/fixtures';

export { learnerUser };

/** Noon (local time) `days` days from today. */
export function noonIn(days: number): string {
  const now = new Date();
  return new Date(now.getFullYear(), now.getMonth(), now.getDate() + days, 12, 0).toISOString();
}

export const homeCategories: HomeCategory[] = [
  {
    id: 1,
    name: 'Обязательное обучение',
    items: [
      homeCourse({
        id: 11,
        name: 'Охрана труда и пожарная безопасность',
        image: '/storage/demo/cover.png',
        groups: 2,
        students: 14,
        deadline: noonIn(5),
        deadline_status: 'in_order',
        lessons: { total: 3, completed: 1 },
        test: { total: 2, completed: 1 },
        progress: 40,
      }),
      homeCourse({
        id: 12,
        name: 'Информационная безопасность',
        deadline: noonIn(-2),
        deadline_status: 'overdue',
        lessons: { total: 4, completed: 0 },
      }),
    ],
  },
  { id: 2, name: 'Пустая категория', items: [] },
  {
    id: 3,
    name: 'Навыки',
    items: [
      homeCourse({
        id: 31,
        name: 'Эффективные переговоры',
        deadline: noonIn(2),
        deadline_status: 'almost_overdue',
        lessons: { total: 2, completed: 2 },
        test: { total: 1, completed: 1 },
        progress: 100,
        complete: true,
      }),
    ],
  },
  { id: -1, name: 'Без категории', items: [homeCourse({ id: 41, name: 'Работа с CRM', deadline: noonIn(21) })] },
];

export function startedLessons(count: number): StartedLesson[] {
  return Array.from({ length: count }, (_, i) => ({
    id: 100 + i,
    course_id: 11,
    name: `Урок ${i + 1}`,
    module: `Модуль ${i + 1}`,
    section: 'Охрана труда',
    image: i === 0 ? '/storage/demo/lesson.png' : null,
  }));
}
