import { MOVE_TEXTS, PUBLISHED_TEXTS } from '../../shared/texts';

/** The catalogue's texts (docs/product.md §Catalogue). */
export const T = {
  pageTitle: 'Управление курсами',
  subtitle: 'Создавайте курсы, объединяйте их в категории и настраивайте порядок каталога',
  accessDenied: 'Доступ запрещен',
  accessDeniedHint: 'Каталог курсов доступен только администраторам и авторам курсов.',
  searchPlaceholder: 'Поиск по курсам',
  resetSearch: 'Сбросить поиск',
  editCatalogue: 'Настроить каталог',
  createCourse: 'Создать курс',
  saveChanges: 'Сохранить изменения',
  createCategory: 'Создать категорию',
  editModeHint:
    'Режим настройки каталога: меняйте порядок категорий, переименовывайте и удаляйте их. Изменения сохранятся при выходе из режима.',
  loading: 'Загрузка курсов...',
  loadError: 'Ошибка при загрузке курсов',
  retry: 'Повторить',
  emptyCatalogue: 'В каталоге пока нет курсов',
  emptyCatalogueHint: 'Создайте первую категорию или курс — они появятся здесь.',
  emptyCategory: 'В этой категории пока нет курсов',
  addCourseTile: 'Добавить курс',
  addCourseTo: (category: string) => `Создать курс в категории «${category}»`,
  ...PUBLISHED_TEXTS,
  // category controls
  renameHint: 'Нажмите, чтобы переименовать',
  categoryName: 'Название категории',
  ...MOVE_TEXTS,
  deleteCategory: (name: string) => `Удалить категорию «${name}»`,
  // delete confirmation
  deleteTitle: 'Удаление категории',
  deleteQuestion: (name: string) => `Удалить категорию «${name}»?`,
  deleteWarning: 'Все курсы этой категории тоже будут удалены. Это действие нельзя отменить.',
  deleteConfirm: 'Удалить',
  cancel: 'Отмена',
  // name dialog
  newCourseTitle: 'Новый курс',
  newCategoryTitle: 'Новая категория',
  courseName: 'Название курса',
  categoryField: 'Категория',
  create: 'Создать',
  // validation and server answers
  emptyName: 'Поле не может быть пустым',
  duplicateName: 'Введите другое название',
  // toasts
  courseCreated: 'Курс успешно создан',
  courseCreateError: 'Ошибка при создании курса',
  courseNoRights: 'У вас нет прав для создания курса',
  // docs/product.md §Catalogue 'Категория успешно создана/удалена': one text per outcome.
  categoryCreated: 'Категория успешно создана',
  categoryCreateError: 'Ошибка при создании категории',
  categoryNoRights: 'У вас нет прав для создания категории',
  categoryDeleted: 'Категория успешно удалена',
  categoryDeleteError: 'Ошибка при удалении категории',
  saved: 'Изменения успешно сохранены',
  saveError: 'Ошибка при сохранении изменений',
  renameError: 'Ошибка при обновлении названия категории',
} as const;
