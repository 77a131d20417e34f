import { Group, Text } from '@mantine/core';
import { IconAlertTriangle, IconClockHour4 } from '@tabler/icons-react';
import { DEADLINE_PREFIX, courseDeadline, type DeadlineOf, type DeadlineTone } from '../lib/deadline';

// Dark enough for 4.5:1 contrast on white (Mantine's orange shades are not, hence the custom one).
const TONE_COLOR: Record<DeadlineTone, string | undefined> = {
  overdue: 'red.9',
  almost_overdue: '#a84300',
  normal: undefined,
};

/**
 * A course's deadline, the one way the home card and the course page show it (docs/product.md §Course card): 'Осталось
 * N дней' or 'Просрочено', coloured by the server's status; nothing for a completed course or a
 * course without a deadline.
 */
export function CourseDeadline({ course, now }: { course: DeadlineOf; now?: Date | undefined }) {
  const deadline = courseDeadline(course, now);
  if (!deadline) return null;
  const { text, tone, overdue } = deadline;
  const color = TONE_COLOR[tone];
  return (
    <Group gap={6} wrap="nowrap" data-deadline-tone={tone} data-testid="course-deadline">
      <Text c={color ?? 'dimmed'} lh={0}>
        {overdue ? <IconAlertTriangle size={16} aria-hidden="true" /> : <IconClockHour4 size={16} aria-hidden="true" />}
      </Text>
      <Text size="sm" c={color}>
        {overdue ? (
          <Text span fw={600} inherit>
            {text}
          </Text>
        ) : (
          <>
            <Text span c={color ?? 'dimmed'} inherit>
              {DEADLINE_PREFIX}
            </Text>{' '}
            <Text span fw={600} inherit>
              {text}
            </Text>
          </>
        )}
      </Text>
    </Group>
  );
}
