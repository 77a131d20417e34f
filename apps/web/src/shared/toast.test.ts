import { notifications } from '@mantine/notifications';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { toastError, toastSuccess } from './toast';

afterEach(() => vi.restoreAllMocks());

describe('toasts', () => {
  it('come in two kinds, green success and red error, lasting 7000 ms', () => {
    const show = vi.spyOn(notifications, 'show').mockReturnValue('id');
    toastSuccess('Вы успешно авторизованы');
    toastError('Неверный логин или пароль');
    expect(show).toHaveBeenNthCalledWith(
      1,
      expect.objectContaining({ color: 'green', message: 'Вы успешно авторизованы', autoClose: 7000 }),
    );
    expect(show).toHaveBeenNthCalledWith(
      2,
      expect.objectContaining({ color: 'red', message: 'Неверный логин или пароль', autoClose: 7000 }),
    );
  });
});
