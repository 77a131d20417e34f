import { Button, Group, Paper, Text } from '@mantine/core';
import { IconCircleCheckFilled, IconClockHour4 } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { formatDuration, secondsBetween } from '../../lib/lessonTime';
import { LEARNING_TEXTS as T, SUCCESS_GREEN } from './texts';

interface LessonFooterProps {
  startedAt: string | null;
  completedAt: string | null;
  /** The server's clock when the lesson was loaded: the timer starts from it (docs/product.md §Lesson page). */
  serverTime: string;
  completing: boolean;
  onComplete: () => void;
}

/** 'Время урока': seconds since the start by the server's clock, one more every second. */
function LessonTimer({ startedAt, serverTime }: { startedAt: string; serverTime: string }) {
  const [seconds, setSeconds] = useState(() => secondsBetween(startedAt, serverTime));
  useEffect(() => {
    setSeconds(secondsBetween(startedAt, serverTime));
    const timer = window.setInterval(() => setSeconds((s) => s + 1), 1000);
    return () => window.clearInterval(timer);
  }, [startedAt, serverTime]);
  return (
    <Group gap={6} wrap="nowrap">
      <IconClockHour4 size={18} aria-hidden />
      <Text fw={500}>
        {T.lessonTime}:{' '}
        <Text span ff="monospace" fw={700} data-testid="lesson-timer">
          {formatDuration(seconds)}
        </Text>
      </Text>
    </Group>
  );
}

/** The lesson footer's three states (docs/product.md §Lesson page). */
export function LessonFooter({ startedAt, completedAt, serverTime, completing, onComplete }: LessonFooterProps) {
  if (completedAt) {
    return (
      <Paper withBorder p="md" radius="lg">
        <Group gap={8} wrap="nowrap">
          <IconCircleCheckFilled size={20} color="var(--mantine-color-green-7)" aria-hidden />
          <Text fw={500}>{T.lessonDone(formatDuration(secondsBetween(startedAt, completedAt)))}</Text>
        </Group>
      </Paper>
    );
  }
  return (
    <Paper withBorder p="md" radius="lg">
      <Group justify={startedAt ? 'space-between' : 'flex-end'} gap="md">
        {startedAt ? <LessonTimer startedAt={startedAt} serverTime={serverTime} /> : null}
        <Button color={SUCCESS_GREEN} onClick={onComplete} loading={completing}>
          {T.complete}
        </Button>
      </Group>
    </Paper>
  );
}
