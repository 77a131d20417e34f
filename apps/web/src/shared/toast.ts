import { notifications } from '@mantine/notifications';

/** Toasts come in two kinds only and last 7000 ms (spec 01 §8, §9). */
export const TOAST_DURATION = 7000;

export function toastSuccess(message: string): void {
  notifications.show({ color: 'green', message, autoClose: TOAST_DURATION, withBorder: true });
}

export function toastError(message: string): void {
  notifications.show({ color: 'red', message, autoClose: TOAST_DURATION, withBorder: true });
}
