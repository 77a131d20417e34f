import type { ScormScoState } from '@lms/contract';
import { IconCircleCheckFilled, IconCircleDashed, IconCircleXFilled, IconProgress } from '@tabler/icons-react';

/** A package's or SCO's status as an icon, in the course page's colours (the text says it in words beside it). */
export function ScormStatusIcon({ status }: { status: ScormScoState['status'] }) {
  switch (status) {
    case 'completed':
      return <IconCircleCheckFilled size={18} color="var(--mantine-color-green-7)" aria-hidden />;
    case 'failed':
      return <IconCircleXFilled size={18} color="var(--mantine-color-red-7)" aria-hidden />;
    case 'in_progress':
      return <IconProgress size={18} color="var(--mantine-color-orange-7)" aria-hidden />;
    default:
      return <IconCircleDashed size={18} color="var(--mantine-color-gray-5)" aria-hidden />;
  }
}
