import { serverMessage } from '../../../lib/errors';
import { T } from '../texts';

/** The detail after 'Произошла ошибка при загрузке изображения: ' (the server's message when it sent one). */
export function uploadErrorDetail(error: unknown): string {
  const message = serverMessage(error);
  if (message) return message;
  return error instanceof Error && error.message ? error.message : T.unknownError;
}
