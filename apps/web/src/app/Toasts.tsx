import { Notifications } from '@mantine/notifications';
import { TOAST_DURATION } from '../shared/toast';

/**
 * The toast container (Mantine notifications). Each toast picks its corner (shared/toast.ts
 * `toastCorner`): bottom right, or top right below the header when the control it talks about is
 * low in the window.
 */
export default function Toasts() {
  return (
    <Notifications position="bottom-right" autoClose={TOAST_DURATION} zIndex={250} className="app-notifications" />
  );
}
