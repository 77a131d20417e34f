import { notifications } from '@mantine/notifications';

/** Toasts come in two kinds only and last 7000 ms (spec 01 §8, §9). */
export const TOAST_DURATION = 7000;

/** The close button needs a name for screen readers. */
const closeButtonProps = { 'aria-label': 'Закрыть уведомление' };

export function toastSuccess(message: string): void {
  notifications.show({ color: 'green', message, autoClose: TOAST_DURATION, withBorder: true, closeButtonProps });
}

/** `id` lets a screen take back its own toast later (see hideToast). */
export function toastError(message: string, id?: string): void {
  if (id) notifications.hide(id);
  notifications.show({ id, color: 'red', message, autoClose: TOAST_DURATION, withBorder: true, closeButtonProps });
}

export function hideToast(id: string): void {
  notifications.hide(id);
}
