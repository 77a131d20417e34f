import type { StartedLesson } from '@lms/contract';
import { ActionIcon, Card, Group, SimpleGrid, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconChevronLeft, IconChevronRight, IconPlayerPlayFilled } from '@tabler/icons-react';
import { memo, useEffect, useId, useRef, useState } from 'react';
import { Link } from '../../shared/Link';
import { CoverImage } from '../../shared/CourseCard';
import classes from './Home.module.css';
import { HOME_TEXTS } from './texts';

/** Slider constants (docs/product.md §Home): 2 lessons a page, 150 ms per fade phase. */
export const SLIDER_PAGE_SIZE = 2;
export const SLIDER_FADE_MS = 150;

export function lessonPath(lesson: Pick<StartedLesson, 'id' | 'course_id'>): string {
  return `/courses/${lesson.course_id}/lesson/${lesson.id}`;
}

function LessonCard({ lesson }: { lesson: StartedLesson }) {
  return (
    <Card component={Link} to={lessonPath(lesson)} withBorder radius="lg" padding="sm" className={classes.lessonCard}>
      <Group wrap="nowrap" gap="md" h="100%">
        <CoverImage src={lesson.image} className={classes.lessonImage} />
        <Stack gap={2} miw={0} flex={1}>
          <Text size="xs" c="brand.7" fw={600} truncate="end">
            {lesson.section}
          </Text>
          <Text fw={600} lh={1.35} lineClamp={2}>
            {lesson.name}
          </Text>
          <Text size="sm" c="dimmed" truncate="end">
            {lesson.module}
          </Text>
        </Stack>
        <ThemeIcon variant="light" radius="xl" size={40} visibleFrom="xs" aria-hidden="true">
          <IconPlayerPlayFilled size={16} />
        </ThemeIcon>
      </Group>
    </Card>
  );
}

/**
 * 'Продолжить просмотр' (docs/product.md §Home): the started lessons, 2 a page. Changing the page fades
 * out for 150 ms, swaps the page, then fades in for 150 ms; clicks during those 300 ms are ignored.
 */
export const LessonSlider = memo(function LessonSlider({ lessons }: { lessons: StartedLesson[] }) {
  const titleId = useId();
  const pages = Math.max(1, Math.ceil(lessons.length / SLIDER_PAGE_SIZE));
  const [page, setPage] = useState(0);
  const [visible, setVisible] = useState(true);
  const animating = useRef(false);
  const timers = useRef<number[]>([]);

  useEffect(() => {
    const pending = timers.current;
    return () => pending.forEach((timer) => window.clearTimeout(timer));
  }, []);

  const current = Math.min(page, pages - 1);
  const shown = lessons.slice(current * SLIDER_PAGE_SIZE, current * SLIDER_PAGE_SIZE + SLIDER_PAGE_SIZE);

  const go = (delta: number) => {
    if (animating.current) return;
    const target = current + delta;
    if (target < 0 || target >= pages) return;
    animating.current = true;
    setVisible(false);
    timers.current.push(
      window.setTimeout(() => {
        setPage(target);
        setVisible(true);
        timers.current.push(
          window.setTimeout(() => {
            animating.current = false;
          }, SLIDER_FADE_MS),
        );
      }, SLIDER_FADE_MS),
    );
  };

  return (
    <Stack component="section" aria-labelledby={titleId} gap="md">
      <Group justify="space-between" wrap="nowrap">
        <Title order={2} id={titleId} fz={{ base: 18, sm: 20 }}>
          {HOME_TEXTS.continueTitle}
        </Title>
        {pages > 1 ? (
          <Group gap="xs" wrap="nowrap">
            <ActionIcon
              variant="default"
              radius="xl"
              size="lg"
              aria-label={HOME_TEXTS.previous}
              disabled={current === 0}
              onClick={() => go(-1)}
            >
              <IconChevronLeft size={18} aria-hidden="true" />
            </ActionIcon>
            <Text size="sm" c="dimmed" miw={36} ta="center" aria-live="polite" data-testid="slider-position">
              {current + 1} / {pages}
            </Text>
            <ActionIcon
              variant="default"
              radius="xl"
              size="lg"
              aria-label={HOME_TEXTS.next}
              disabled={current === pages - 1}
              onClick={() => go(1)}
            >
              <IconChevronRight size={18} aria-hidden="true" />
            </ActionIcon>
          </Group>
        ) : null}
      </Group>
      <SimpleGrid
        type="container"
        cols={{ base: 1, '560px': 2 }}
        spacing="md"
        className={classes.page}
        style={{ opacity: visible ? 1 : 0, transitionDuration: `${SLIDER_FADE_MS}ms` }}
        data-testid="lesson-slider-page"
        data-visible={visible}
      >
        {shown.map((lesson) => (
          <LessonCard key={lesson.id} lesson={lesson} />
        ))}
      </SimpleGrid>
    </Stack>
  );
});
