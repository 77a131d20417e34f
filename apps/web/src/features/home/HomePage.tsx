import type { HomeCategory } from '@lms/contract';
import { Group, Stack, Text, Title } from '@mantine/core';
import { IconBooks } from '@tabler/icons-react';
import { useId, useMemo, useState } from 'react';
import { filterGroups } from '../../lib/search';
import { CourseCard, CourseGrid } from '../../shared/CourseCard';
import { LoadErrorNotice, LoadingStatus, Notice, NothingFoundNotice } from '../../shared/ListStates';
import { PageGreeting } from '../../shared/PageGreeting';
import { SearchInput } from '../../shared/SearchInput';
import { useSession } from '../../shared/session';
import { useStartedLessons, useUserCourses } from './queries';
import { LessonSlider } from './LessonSlider';
import { HOME_TEXTS } from './texts';

/** Cards whose covers load at once: the first row on a wide screen, the largest paint of the page. */
const EAGER_COVERS = 4;

function CategorySection({ category, eagerCovers }: { category: HomeCategory; eagerCovers: number }) {
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
        {category.items.map((course, i) => (
          <CourseCard key={course.id} course={course} eager={i < eagerCovers} />
        ))}
      </CourseGrid>
    </Stack>
  );
}

function CourseList({ query, onClear }: { query: string; onClear: () => void }) {
  const courses = useUserCourses();
  const categories = useMemo(
    () => (courses.data ?? []).filter((category) => category.items.length > 0),
    [courses.data],
  );
  const shown = useMemo(() => filterGroups(categories, query, (course) => [course.name]), [categories, query]);

  if (courses.isPending) return <LoadingStatus text={HOME_TEXTS.coursesLoading} />;
  if (courses.isError) {
    return <LoadErrorNotice title={HOME_TEXTS.coursesError} retryLabel={HOME_TEXTS.retry} query={courses} />;
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
    return <NothingFoundNotice query={query} resetLabel={HOME_TEXTS.resetSearch} onReset={onClear} />;
  }
  return (
    <Stack gap={32}>
      {shown.map((category, i) => (
        <CategorySection
          key={category.id}
          category={category}
          eagerCovers={EAGER_COVERS - shown.slice(0, i).reduce((sum, before) => sum + before.items.length, 0)}
        />
      ))}
    </Stack>
  );
}

/**
 * Home (docs/product.md §Home): greeting, 'Продолжить просмотр' with the started lessons, the course search
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
      <PageGreeting userName={user?.name} subtitle={HOME_TEXTS.subtitle} />

      {lessons.length > 0 ? <LessonSlider lessons={lessons} /> : null}

      <Stack component="section" aria-labelledby={coursesTitleId} gap="lg">
        <Group justify="space-between" gap="md" align="center">
          <Title order={2} id={coursesTitleId} fz={{ base: 18, sm: 20 }}>
            {HOME_TEXTS.coursesTitle}
          </Title>
          <SearchInput
            value={query}
            onChange={setQuery}
            placeholder={HOME_TEXTS.searchPlaceholder}
            radius="md"
            w={{ base: '100%', xs: 340 }}
          />
        </Group>
        <CourseList query={query} onClear={() => setQuery('')} />
      </Stack>
    </Stack>
  );
}
