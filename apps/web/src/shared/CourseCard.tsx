import { OF_LECTURES, OF_TESTS, formatOutOf } from '@lms/contract';
import { AspectRatio, Badge, Card, Group, Progress, SimpleGrid, Stack, Text, VisuallyHidden } from '@mantine/core';
import { IconBook2, IconCircleCheckFilled, IconListCheck, IconUser, IconUsersGroup } from '@tabler/icons-react';
import { memo, type ReactNode } from 'react';
import { Link } from './Link';
import type { DeadlineStatus } from '../lib/deadline';
import { CourseDeadline } from './CourseDeadline';
import classes from './CourseCard.module.css';
import placeholderImage from './images/course-placeholder.svg';

/** The card fields shared by the home list and the admin catalogue (docs/product.md §Course card). */
export interface CourseCardCourse {
  name: string;
  image: string | null;
  url: string;
  groups: number;
  students: number;
  deadline: string | null;
  deadline_status?: DeadlineStatus;
  lessons: { total: number; completed: number };
  test: { total: number; completed: number };
  progress: number;
  complete: boolean;
}

export const COURSE_TEXTS = {
  groups: 'Учебные группы',
  students: 'Ученики',
  complete: 'Курс пройден',
  progress: 'Прогресс по курсу',
  /** 'X/Y лекций' (docs/product.md §Course card), the noun agreeing with Y: '0/1 лекции', '2/3 лекций'. */
  lessons: (c: { total: number; completed: number }) => formatOutOf(c.completed, c.total, OF_LECTURES),
  /** 'X/Y тестов' (docs/product.md §Course card): '1/1 теста', '0/4 тестов'. */
  tests: (c: { total: number; completed: number }) => formatOutOf(c.completed, c.total, OF_TESTS),
} as const;

/** The bundled picture shown when a course or lesson has no image. */
export const COURSE_PLACEHOLDER_IMAGE = placeholderImage;

/**
 * A picture that falls back to the placeholder when it is missing or fails to load. Loaded lazily
 * unless `eager` (the first covers of a page, which are its largest paint): those are asked for at
 * once with a high priority, where the browser would otherwise start images at a low one, a few at
 * a time, until the layout shows them in view.
 */
export function CoverImage({
  src,
  className,
  eager = false,
}: {
  src: string | null;
  className?: string;
  eager?: boolean;
}) {
  return (
    <img
      src={src ?? placeholderImage}
      alt=""
      className={className}
      loading={eager ? 'eager' : 'lazy'}
      fetchPriority={eager ? 'high' : undefined}
      onError={(event) => {
        if (event.currentTarget.src !== placeholderImage) event.currentTarget.src = placeholderImage;
      }}
    />
  );
}

function Counter({ icon, label, value }: { icon: ReactNode; label: string; value: number }) {
  return (
    <Group gap={4} wrap="nowrap" title={label} c="dimmed">
      {icon}
      <Text size="sm" c="dark.5" fw={500}>
        <VisuallyHidden>{label}: </VisuallyHidden>
        {value}
      </Text>
    </Group>
  );
}

/** 'X/Y лекций' or 'X/Y тестов' with its icon. */
function ItemCount({ icon, text }: { icon: ReactNode; text: string }) {
  return (
    <Group gap={4} wrap="nowrap" c="dimmed">
      {icon}
      <Text size="sm" c="dark.5">
        {text}
      </Text>
    </Group>
  );
}

interface CourseCardProps {
  course: CourseCardCourse;
  /** Shown over the image's top-left corner (the catalogue's published badge). */
  badge?: ReactNode;
  /** The moment deadlines are measured from (tests); now by default. */
  now?: Date;
  /** Load the cover at once (the first cards of a page): they are its largest paint. */
  eager?: boolean;
}

/**
 * A course card linking to the course's url (docs/product.md §Home, §Course card, §Catalogue): image or the
 * placeholder, name, group and student counts, 'Осталось …' deadline, 'X/Y лекций' and
 * 'X/Y тестов' when there are any, a progress bar with percent when above 0, 'Курс пройден'.
 * Memoised: a list redrawn on each keystroke of its search does not redraw the cards it keeps.
 */
export const CourseCard = memo(function CourseCard({ course, badge, now, eager }: CourseCardProps) {
  const showLessons = course.lessons.total > 0;
  const showTests = course.test.total > 0;
  return (
    <Card component={Link} to={course.url} withBorder radius="lg" padding={0} className={classes.card}>
      <div className={classes.media}>
        <AspectRatio ratio={2}>
          <CoverImage src={course.image} className={classes.image} eager={eager} />
        </AspectRatio>
        {badge ? <div className={classes.badge}>{badge}</div> : null}
      </div>
      <Stack p="md" gap={10} flex={1}>
        <Text fw={600} lh={1.35} lineClamp={2}>
          {course.name}
        </Text>
        <Group gap="md">
          <Counter
            icon={<IconUsersGroup size={16} aria-hidden="true" />}
            label={COURSE_TEXTS.groups}
            value={course.groups}
          />
          <Counter
            icon={<IconUser size={16} aria-hidden="true" />}
            label={COURSE_TEXTS.students}
            value={course.students}
          />
        </Group>
        <CourseDeadline course={course} now={now} />
        {showLessons || showTests ? (
          <Group gap="md">
            {showLessons ? (
              <ItemCount
                icon={<IconBook2 size={16} aria-hidden="true" />}
                text={COURSE_TEXTS.lessons(course.lessons)}
              />
            ) : null}
            {showTests ? (
              <ItemCount icon={<IconListCheck size={16} aria-hidden="true" />} text={COURSE_TEXTS.tests(course.test)} />
            ) : null}
          </Group>
        ) : null}
        {course.progress > 0 || course.complete ? (
          <Stack gap={8} mt="auto">
            {course.progress > 0 ? (
              <Group gap="sm" wrap="nowrap">
                <Progress
                  value={Math.min(100, Math.max(0, course.progress))}
                  color={course.complete ? 'green' : 'brand'}
                  size="md"
                  radius="xl"
                  flex={1}
                  aria-label={COURSE_TEXTS.progress}
                />
                <Text size="sm" fw={600} miw={38} ta="right">
                  {course.progress}%
                </Text>
              </Group>
            ) : null}
            {course.complete ? (
              <Badge
                color="green"
                variant="light"
                radius="sm"
                size="lg"
                tt="none"
                fw={600}
                leftSection={<IconCircleCheckFilled size={16} aria-hidden="true" />}
                style={{ alignSelf: 'flex-start' }}
              >
                {COURSE_TEXTS.complete}
              </Badge>
            ) : null}
          </Stack>
        ) : null}
      </Stack>
    </Card>
  );
});

/** A responsive grid of course cards: 1 column on phones up to 4 on wide screens. */
export function CourseGrid({ children }: { children: ReactNode }) {
  return (
    <SimpleGrid
      type="container"
      cols={{ base: 1, '520px': 2, '800px': 3, '1120px': 4 }}
      spacing="lg"
      verticalSpacing="lg"
    >
      {children}
    </SimpleGrid>
  );
}
