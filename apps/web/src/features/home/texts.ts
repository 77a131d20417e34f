/** The home page's texts (docs/product.md §Home). */
export const HOME_TEXTS = {
  subtitle: 'Сегодня отличный день, чтобы узнать новое или закрепить знания на практике',
  continueTitle: 'Продолжить просмотр',
  previous: 'Предыдущие уроки',
  next: 'Следующие уроки',
  continueLesson: 'Продолжить',
  searchPlaceholder: 'Поиск по курсам',
  coursesTitle: 'Мои курсы',
  coursesLoading: 'Загрузка курсов...',
  coursesError: 'Ошибка при загрузке курсов',
  retry: 'Повторить',
  noCourses: 'Вам пока не назначено ни одного курса',
  noCoursesHint: 'Когда руководитель или администратор назначит вам обучение, курсы появятся здесь.',
  resetSearch: 'Сбросить поиск',
} as const;
