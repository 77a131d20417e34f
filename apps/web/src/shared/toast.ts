import { notifications } from '@mantine/notifications';

/** Toasts come in two kinds only and last 7000 ms (spec 01 §8, §9). */
export const TOAST_DURATION = 7000;

export function toastSuccess(message: string): void {
  notifications.show({ color: 'green', message, autoClose: TOAST_DURATION, withBorder: true });
}

/** `id` lets a screen take back its own toast later (see hideToast). */
export function toastError(message: string, id?: string): void {
  if (id) notifications.hide(id);
  notifications.show({ id, color: 'red', message, autoClose: TOAST_DURATION, withBorder: true });
}

export function hideToast(id: string): void {
  notifications.hide(id);
}
