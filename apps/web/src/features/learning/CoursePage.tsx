import { Anchor, Group, Paper, Stack, Switch, Text, Title } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import { useParams } from 'react-router';
import { isNotFound } from '../../lib/errors';
import { Link } from '../../shared/Link';
import { CourseSummaryCard } from './CourseSummaryCard';
import { firstOpenItem, hideCompleted } from './logic';
import { ModuleList } from './ModuleList';
import { parseId } from './params';
import { useCourseSummary, useModules } from './queries';
import { Loading, LoadError, Missing } from './states';
import { LEARNING_TEXTS as T } from './texts';

/** Course page /courses/{id} (docs/product.md §Course page): summary, hide-completed switch and the module accordion. */
export default function CoursePage() {
  const params = useParams();
  const courseId = parseId(params.courseId);
  const modules = useModules(courseId);
  const course = useCourseSummary(courseId);
  const [hide, setHide] = useState(false);

  const all = useMemo(() => modules.data ?? [], [modules.data]);
  const shown = useMemo(() => (hide ? hideCompleted(all) : all), [all, hide]);
  const current = useMemo(() => firstOpenItem(all), [all]);

  if (courseId === null) return <Text c="red">{T.courseIdMissing}</Text>;
  // A missing course: said once, in place of the whole page (issue 30).
  const missing = [modules.error, course.error].find(isNotFound);
  if (missing) return <Missing error={missing} fallback={T.courseMissing} courseId={null} />;

  return (
    <Stack gap="lg" maw={960}>
      <Group justify="space-between" gap="md">
        <Anchor component={Link} to="/" size="sm" fw={500}>
          <Group gap={6} wrap="nowrap">
            <IconArrowLeft size={16} aria-hidden />
            {T.back}
          </Group>
        </Anchor>
        <Switch label={T.hideCompleted} checked={hide} onChange={(event) => setHide(event.currentTarget.checked)} />
      </Group>

      {course.isPending ? <Loading /> : <CourseSummaryCard course={course.data} />}

      <Stack gap="sm" component="section" aria-label={T.modulesTitle}>
        <Title order={2} fz={18}>
          {T.modulesTitle}
        </Title>
        {modules.isPending ? (
          <Loading />
        ) : modules.isError ? (
          <LoadError error={modules.error} />
        ) : shown.length === 0 ? (
          <Paper withBorder p="lg" radius="lg">
            <Text c="dimmed">{all.length > 0 ? T.nothingLeft : T.noItems}</Text>
          </Paper>
        ) : (
          <ModuleList modules={shown} current={current} />
        )}
      </Stack>
    </Stack>
  );
}
