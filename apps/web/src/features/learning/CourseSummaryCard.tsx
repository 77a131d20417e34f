import type { CourseSummary } from '@lms/contract';
import { Badge, Box, Flex, Group, Paper, Progress, Stack, Text, Title } from '@mantine/core';
import { IconCircleCheckFilled } from '@tabler/icons-react';
import { CoverImage } from '../../shared/CourseCard';
import { CourseDeadline } from '../../shared/CourseDeadline';
import { CourseCertificate } from './CourseCertificate';
import classes from './Learning.module.css';
import { LEARNING_TEXTS as T, SUCCESS_GREEN } from './texts';

/**
 * The course summary card (docs/product.md §Course page): the cover, label, title and description, the deadline as
 * the home card shows it (none once the course is complete), the counters above 0, progress and
 * completion.
 */
export function CourseSummaryCard({ course }: { course: CourseSummary | undefined }) {
  if (!course) {
    return (
      <Paper withBorder p="lg" radius="lg">
        <Text c="dimmed">{T.courseNotLoaded}</Text>
      </Paper>
    );
  }
  const description = course.description.trim();
  return (
    <Paper withBorder radius="lg" className={classes.summary} data-testid="course-summary">
      <Flex direction={{ base: 'column', sm: 'row' }}>
        <Box className={classes.summaryCover}>
          <CoverImage src={course.image} className={classes.summaryImage} eager />
        </Box>
        <Stack gap="sm" p={{ base: 'md', sm: 'lg' }} style={{ flex: 1, minWidth: 0 }}>
          <Text size="xs" tt="uppercase" fw={700} c="dimmed">
            {T.courseLabel}
          </Text>
          <Title order={1} fz={{ base: 22, sm: 26 }}>
            {course.title}
          </Title>
          {description ? (
            <Text c="dimmed" className={classes.summaryDescription}>
              {description}
            </Text>
          ) : null}
          <CourseDeadline course={course} />
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
            <Badge
              color={SUCCESS_GREEN}
              variant="light"
              size="lg"
              leftSection={<IconCircleCheckFilled size={14} />}
              style={{ alignSelf: 'flex-start' }}
            >
              {T.courseComplete}
            </Badge>
          ) : null}
          <CourseCertificate courseId={course.id} />
        </Stack>
      </Flex>
    </Paper>
  );
}
