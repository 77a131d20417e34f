import { Notifications } from '@mantine/notifications';
import { TOAST_DURATION } from '../shared/toast';

/** The toast container (Mantine notifications): top right, below the header. */
export default function Toasts() {
  return <Notifications position="top-right" autoClose={TOAST_DURATION} zIndex={250} className="app-notifications" />;
}
