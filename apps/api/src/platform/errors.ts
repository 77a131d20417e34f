/** An error with an HTTP status and a Russian message for the client (docs/rules.md §Errors). */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly errors?: Record<string, string[]>,
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

export const MESSAGES = {
  unauthenticated: 'Требуется авторизация',
  forbidden: 'Доступ запрещен',
  notFound: 'Не найдено',
  badJson: 'Некорректный формат запроса',
  tooLarge: 'Слишком большой запрос',
  validation: 'Проверьте правильность заполнения полей',
  badRequest: 'Некорректный запрос',
  internal: 'Внутренняя ошибка сервера. Попробуйте позже.',
  duplicate: 'Запись с таким значением уже существует',
  staleReference: 'Связанная запись не найдена. Обновите страницу и повторите действие.',
  csrf: 'Сессия устарела. Обновите страницу и повторите действие.',
  crossSite: 'Запрос с другого сайта отклонён',
  shuttingDown: 'Сервер перезапускается. Повторите запрос через несколько секунд.',
  badUrl: 'Некорректный адрес запроса',
  urlTooLong: 'Слишком длинный адрес запроса',
  unsupportedMediaType: 'Неподдерживаемый тип содержимого',
  headersTooLarge: 'Слишком большие заголовки запроса',
  requestTimeout: 'Превышено время ожидания запроса',
  storageUnavailable: 'Хранилище файлов временно недоступно. Повторите попытку через несколько минут.',

  ownPasswordFirst: 'Чтобы продолжить, задайте собственный пароль вместо присланного по почте',
} as const;

export const unauthorized = () => new HttpError(401, MESSAGES.unauthenticated);
export const forbidden = (message: string = MESSAGES.forbidden) => new HttpError(403, message);
export const notFound = (message: string = MESSAGES.notFound) => new HttpError(404, message);
export const unprocessable = (message: string, errors?: Record<string, string[]>) =>
  new HttpError(422, message, errors ?? {});
export const tooManyRequests = (message: string) => new HttpError(429, message);
