import type { HomeCategory } from '@lms/contract';
import { Button, CloseButton, Group, Loader, Paper, Stack, Text, TextInput, ThemeIcon, Title } from '@mantine/core';
import { IconAlertTriangle, IconBooks, IconSearch, IconSearchOff } from '@tabler/icons-react';
import { useId, useMemo, useState, type ReactNode } from 'react';
import { greeting } from '../../lib/greeting';
import { filterGroups, notFoundText } from '../../lib/search';
import { CourseCard, CourseGrid } from '../../shared/CourseCard';
import { useSession } from '../auth/session';
import { useStartedLessons, useUserCourses } from './api';
import { LessonSlider } from './LessonSlider';
import { HOME_TEXTS } from './texts';

function CategorySection({ category }: { category: HomeCategory }) {
  const titleId = useId();
  return (
    <Stack component="section" aria-labelledby={titleId} gap="md" data-testid="home-category">
      <Group gap="xs" align="baseline">
        <Title order={3} id={titleId} fz={{ base: 17, sm: 18 }}>
          {category.name}
        </Title>
        <Text size="sm" c="dimmed" aria-hidden="true">
          {category.items.length}
        </Text>
      </Group>
      <CourseGrid>
        {category.items.map((course) => (
          <CourseCard key={course.id} course={course} />
        ))}
      </CourseGrid>
    </Stack>
  );
}

function Notice({
  icon,
  color,
  title,
  children,
}: {
  icon: ReactNode;
  color?: string;
  title: string;
  children?: ReactNode;
}) {
  return (
    <Paper withBorder p={{ base: 'lg', sm: 40 }}>
      <Stack align="center" gap="xs" ta="center">
        <ThemeIcon size={48} radius="xl" variant="light" color={color}>
          {icon}
        </ThemeIcon>
        <Text fw={600} size="lg">
          {title}
        </Text>
        {children}
      </Stack>
    </Paper>
  );
}

function CourseList({ query, onClear }: { query: string; onClear: () => void }) {
  const courses = useUserCourses();
  const categories = useMemo(
    () => (courses.data ?? []).filter((category) => category.items.length > 0),
    [courses.data],
  );
  const shown = useMemo(() => filterGroups(categories, query, (course) => [course.name]), [categories, query]);

  if (courses.isPending) {
    return (
      <Group gap="sm" py="xl" justify="center" role="status" aria-live="polite">
        <Loader size="sm" />
        <Text c="dimmed">{HOME_TEXTS.coursesLoading}</Text>
      </Group>
    );
  }
  if (courses.isError) {
    return (
      <Notice icon={<IconAlertTriangle size={24} aria-hidden="true" />} color="red" title={HOME_TEXTS.coursesError}>
        <Button variant="light" mt="xs" onClick={() => void courses.refetch()} loading={courses.isFetching}>
          {HOME_TEXTS.retry}
        </Button>
      </Notice>
    );
  }
  if (categories.length === 0) {
    return (
      <Notice icon={<IconBooks size={24} aria-hidden="true" />} title={HOME_TEXTS.noCourses}>
        <Text c="dimmed" maw={460}>
          {HOME_TEXTS.noCoursesHint}
        </Text>
      </Notice>
    );
  }
  if (shown.length === 0) {
    return (
      <Notice icon={<IconSearchOff size={24} aria-hidden="true" />} color="gray" title={notFoundText(query)}>
        <Button variant="subtle" onClick={onClear}>
          {HOME_TEXTS.resetSearch}
        </Button>
      </Notice>
    );
  }
  return (
    <Stack gap={32}>
      {shown.map((category) => (
        <CategorySection key={category.id} category={category} />
      ))}
    </Stack>
  );
}

/**
 * Home (spec 01 §2.7): greeting, 'Продолжить просмотр' with the started lessons, the course search
 * and the user's courses grouped by category.
 */
export default function HomePage() {
  const { user } = useSession();
  const started = useStartedLessons();
  const [query, setQuery] = useState('');
  const coursesTitleId = useId();
  const lessons = started.data ?? [];

  return (
    <Stack gap={36}>
      <Stack gap={6}>
        <Title order={1} fz={{ base: 24, sm: 30 }}>
          {greeting(user?.name)}
        </Title>
        <Text c="dimmed" fz={{ base: 'md', sm: 'lg' }}>
          {HOME_TEXTS.subtitle}
        </Text>
      </Stack>

      {lessons.length > 0 ? <LessonSlider lessons={lessons} /> : null}

      <Stack component="section" aria-labelledby={coursesTitleId} gap="lg">
        <Group justify="space-between" gap="md" align="center">
          <Title order={2} id={coursesTitleId} fz={{ base: 18, sm: 20 }}>
            {HOME_TEXTS.coursesTitle}
          </Title>
          <TextInput
            value={query}
            onChange={(event) => setQuery(event.currentTarget.value)}
            placeholder={HOME_TEXTS.searchPlaceholder}
            aria-label={HOME_TEXTS.searchPlaceholder}
            leftSection={<IconSearch size={16} aria-hidden="true" />}
            rightSection={
              query ? <CloseButton size="sm" aria-label={HOME_TEXTS.clearSearch} onClick={() => setQuery('')} /> : null
            }
            radius="md"
            w={{ base: '100%', xs: 340 }}
          />
        </Group>
        <CourseList query={query} onClear={() => setQuery('')} />
      </Stack>
    </Stack>
  );
}
