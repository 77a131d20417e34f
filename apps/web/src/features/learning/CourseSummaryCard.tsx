import type { CourseSummary } from '@lms/contract';
import { Badge, Group, Paper, Progress, Stack, Text, Title } from '@mantine/core';
import { IconCircleCheckFilled } from '@tabler/icons-react';
import { LEARNING_TEXTS as T, SUCCESS_GREEN } from './texts';

/** The course summary card (spec 02 §2): label, title, counters above 0, progress, completion. */
export function CourseSummaryCard({ course }: { course: CourseSummary | undefined }) {
  if (!course) {
    return (
      <Paper withBorder p="lg" radius="lg">
        <Text c="dimmed">{T.courseNotLoaded}</Text>
      </Paper>
    );
  }
  return (
    <Paper withBorder p={{ base: 'md', sm: 'lg' }} radius="lg" data-testid="course-summary">
      <Stack gap="sm">
        <Text size="xs" tt="uppercase" fw={700} c="dimmed">
          {T.courseLabel}
        </Text>
        <Title order={1} fz={{ base: 22, sm: 26 }}>
          {course.title}
        </Title>
        <Group gap="lg">
          {course.lessons_count > 0 ? (
            <Text size="sm" fw={500}>
              {T.lessons(course.completed_lessons_count, course.lessons_count)}
            </Text>
          ) : null}
          {course.tests_count > 0 ? (
            <Text size="sm" fw={500}>
              {T.tests(course.completed_tests_count, course.tests_count)}
            </Text>
          ) : null}
        </Group>
        <Group gap="sm" wrap="nowrap">
          <Progress
            value={course.progress}
            color={course.complete ? 'green' : undefined}
            size="lg"
            radius="xl"
            style={{ flex: 1 }}
            aria-label={T.progress}
          />
          <Text size="sm" fw={700} miw={44} ta="right">
            {course.progress}%
          </Text>
        </Group>
        {course.complete ? (
          <Badge color={SUCCESS_GREEN} variant="light" size="lg" leftSection={<IconCircleCheckFilled size={14} />}>
            {T.courseComplete}
          </Badge>
        ) : null}
      </Stack>
    </Paper>
  );
}
