import { notifications } from '@mantine/notifications';

/** Toasts come in two kinds only and last 7000 ms (docs/product.md §Shell). */
export const TOAST_DURATION = 7000;

/** The close button needs a name for screen readers. */
const closeButtonProps = { 'aria-label': 'Закрыть уведомление' };

type Corner = 'top-right' | 'bottom-right';

/**
 * The control a toast talks about: the one the user has just used — the focused element, or (where
 * a click does not focus a button, as in Safari) the last one pressed.
 */
let lastPressed: Element | null = null;
if (typeof document !== 'undefined') {
  document.addEventListener('pointerdown', (event) => (lastPressed = event.target as Element | null), true);
}

function lastControl(): Element | null {
  const focused = document.activeElement;
  if (focused && focused !== document.body && focused.isConnected) return focused;
  return lastPressed?.isConnected ? lastPressed : null;
}

/**
 * Where a toast goes so that it never covers the control it talks about (issue 30): the right-hand
 * corner in the other half of the window — below the header when the control is in the lower half
 * (a form's submit button, a lesson's 'Отметить урок завершенным'), at the bottom otherwise (a
 * page's header buttons and switches). With no control left on the page, at the bottom.
 */
export function toastCorner(control: Element | null = lastControl()): Corner {
  if (!control) return 'bottom-right';
  const rect = control.getBoundingClientRect();
  return rect.top + rect.height / 2 > window.innerHeight / 2 ? 'top-right' : 'bottom-right';
}

export function toastSuccess(message: string): void {
  notifications.show({
    color: 'green',
    message,
    autoClose: TOAST_DURATION,
    withBorder: true,
    closeButtonProps,
    position: toastCorner(),
  });
}

/** `id` lets a screen take back its own toast later (see hideToast). */
export function toastError(message: string, id?: string): void {
  if (id) notifications.hide(id);
  notifications.show({
    id,
    color: 'red',
    message,
    autoClose: TOAST_DURATION,
    withBorder: true,
    closeButtonProps,
    position: toastCorner(),
  });
}

export function hideToast(id: string): void {
  notifications.hide(id);
}
