import type { AnalyticsEmployee } from '@lms/contract';
import {
  ActionIcon,
  Badge,
  Box,
  Button,
  Group,
  Paper,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Title,
  UnstyledButton,
} from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { IconFilterOff, IconLayoutGrid, IconList, IconUsers } from '@tabler/icons-react';
import { useMemo, useState, type ReactNode } from 'react';
import { errorStatus } from '../../lib/errors';
import { AccessDeniedNotice } from '../../shared/AccessDeniedNotice';
import { ExportMenu } from '../../shared/ExportMenu';
import { LoadErrorNotice, LoadingStatus, Notice, NothingFoundNotice } from '../../shared/ListStates';
import { SearchInput } from '../../shared/SearchInput';
import { useSession } from '../../shared/session';
import { EmployeeAvatar } from './EmployeeAvatar';
import { EmployeeModal } from './EmployeeModal';
import {
  canViewAnalytics,
  GROUPS,
  lastActivityText,
  shownCount,
  shownGroups,
  teamSize,
  TEXT_COLOR,
  toggleFilter,
  type Filter,
  type GroupInfo,
  type ShownGroup,
} from './logic';
import { Hint, ProgressRing } from './ProgressRing';
import { useAnalyticsOverview } from './queries';
import { T } from './texts';

type View = 'grid' | 'list';

/** The analytics export (issue 16): GET with the screen's status filter and search. */
const EXPORT_PATH = '/api/analytics/export';
/** The same people, one row per employee and course (the xlsx holds it as a second sheet). */
const EXPORT_MORE = [{ label: T.exportCoursesCsv, path: '/api/analytics/export/courses', format: 'csv' }] as const;

/** /analytics: the manager's employees by deadline status (docs/product.md §Analytics). */
export default function AnalyticsPage() {
  useDocumentTitle(T.title);
  const { user } = useSession();
  const allowed = canViewAnalytics(user);
  const overview = useAnalyticsOverview(allowed);
  const [filter, setFilter] = useState<Filter>(null);
  const [search, setSearch] = useState('');
  const [view, setView] = useState<View>('grid');
  const [openId, setOpenId] = useState<number | null>(null);

  const groups = useMemo(
    () => (overview.data ? shownGroups(overview.data, filter, search) : []),
    [overview.data, filter, search],
  );
  const count = shownCount(groups);

  if (!allowed || errorStatus(overview.error) === 403) {
    return (
      <Stack gap="lg">
        <Title order={1}>{T.title}</Title>
        <AccessDeniedNotice title={T.accessDenied} hint={T.accessDeniedHint} />
      </Stack>
    );
  }

  let content;
  if (overview.isPending) content = <LoadingStatus text={T.loading} />;
  else if (overview.isError) content = <LoadErrorNotice title={T.loadError} retryLabel={T.retry} query={overview} />;
  else if (groups.length === 0 && search.trim() !== '')
    content = <NothingFoundNotice query={search} resetLabel={T.resetSearch} onReset={() => setSearch('')} />;
  else if (groups.length === 0 && filter !== null && teamSize(overview.data) > 0)
    content = (
      <Notice icon={<IconFilterOff size={24} aria-hidden="true" />} color="gray" title={T.emptyFilter}>
        <Button variant="subtle" onClick={() => setFilter(null)}>
          {T.resetFilter}
        </Button>
      </Notice>
    );
  else if (groups.length === 0)
    content = <Notice icon={<IconUsers size={24} aria-hidden="true" />} color="gray" title={T.empty} />;
  else if (view === 'grid') content = <GridView groups={groups} onOpen={setOpenId} />;
  else content = <ListView groups={groups} onOpen={setOpenId} />;

  return (
    <Stack gap="lg">
      <Title order={1}>{T.title}</Title>

      <Paper withBorder p={{ base: 'sm', sm: 'md' }}>
        <Stack gap="sm">
          <Group gap="xs" role="group" aria-label={T.filtersLabel}>
            {GROUPS.map((g) => (
              <FilterButton
                key={g.key}
                group={g}
                active={filter === g.key}
                onClick={() => setFilter((f) => toggleFilter(f, g.key))}
              />
            ))}
          </Group>
          <Group gap="sm" wrap="nowrap" align="center">
            <SearchInput
              value={search}
              onChange={setSearch}
              placeholder={T.search}
              type="search"
              style={{ flex: 1, minWidth: 0 }}
            />
            <ActionIcon.Group aria-label={T.viewLabel} role="group">
              <ViewButton label={T.viewGrid} active={view === 'grid'} onClick={() => setView('grid')}>
                <IconLayoutGrid size={20} aria-hidden="true" />
              </ViewButton>
              <ViewButton label={T.viewList} active={view === 'list'} onClick={() => setView('list')}>
                <IconList size={20} aria-hidden="true" />
              </ViewButton>
            </ActionIcon.Group>
          </Group>
        </Stack>
      </Paper>

      <Stack component="section" aria-labelledby="analytics-employees" gap="md">
        <Group justify="space-between" gap="sm" align="center">
          <Group gap="sm" align="center">
            <Title order={2} id="analytics-employees" fz={{ base: 20, sm: 22 }}>
              {T.myEmployees}
            </Title>
            {overview.data && (
              <Badge size="lg" variant="light" circle={count < 10} data-testid="employees-count">
                {count}
              </Badge>
            )}
          </Group>
          {/* the file holds what is shown: the same filter and search, checked and scoped by the server */}
          <ExportMenu path={EXPORT_PATH} filters={{ status: filter, search: search.trim() }} more={EXPORT_MORE} />
        </Group>
        {content}
      </Stack>

      <EmployeeModal userId={openId} onClose={() => setOpenId(null)} />
    </Stack>
  );
}

interface ViewButtonProps {
  label: string;
  active: boolean;
  onClick: () => void;
  children: ReactNode;
}

function ViewButton({ label, active, onClick, children }: ViewButtonProps) {
  return (
    <Hint label={label}>
      <ActionIcon
        size={36}
        variant={active ? 'filled' : 'default'}
        aria-label={label}
        aria-pressed={active}
        onClick={onClick}
      >
        {children}
      </ActionIcon>
    </Hint>
  );
}

function FilterButton({ group, active, onClick }: { group: GroupInfo; active: boolean; onClick: () => void }) {
  return (
    <Button
      size="sm"
      radius="xl"
      color={active ? TEXT_COLOR[group.color] : group.color}
      variant={active ? 'filled' : 'light'}
      c={active ? undefined : TEXT_COLOR[group.color]}
      aria-pressed={active}
      onClick={onClick}
    >
      {group.filter}
    </Button>
  );
}

/** The deadline in its group's colour; hovering shows the course name, except in the in-order group. */
function Deadline({ employee, group }: { employee: AnalyticsEmployee; group: GroupInfo }) {
  const text = (
    <Text
      component="span"
      size="sm"
      fw={600}
      c={employee.deadline ? TEXT_COLOR[group.color] : 'dimmed'}
      data-testid="deadline"
    >
      {employee.deadline || '—'}
    </Text>
  );
  if (group.key === 'in_order' || !employee.course || !employee.deadline) return text;
  return (
    <Hint label={employee.course.name}>
      <Box component="span" tabIndex={0} style={{ display: 'inline-block', borderRadius: 4 }}>
        {text}
      </Box>
    </Hint>
  );
}

interface ViewProps {
  groups: ShownGroup[];
  onOpen: (id: number) => void;
}

function GridView({ groups, onOpen }: ViewProps) {
  return (
    <Stack gap="xl">
      {groups.map((g) => (
        <Stack key={g.key} component="section" gap="sm" aria-label={g.title}>
          <Group gap="xs">
            <Box w={10} h={10} bg={`${g.color}.6`} style={{ borderRadius: '50%' }} aria-hidden="true" />
            <Title order={3} fz="lg">
              {g.title}
            </Title>
            <Text c="dimmed" size="sm">
              {g.items.length}
            </Text>
          </Group>
          <SimpleGrid cols={{ base: 1, xs: 2, md: 3, lg: 4 }} spacing="md">
            {g.items.map((e) => (
              <EmployeeCard key={e.id} employee={e} group={g} onOpen={() => onOpen(e.id)} />
            ))}
          </SimpleGrid>
        </Stack>
      ))}
    </Stack>
  );
}

function EmployeeCard({
  employee,
  group,
  onOpen,
}: {
  employee: AnalyticsEmployee;
  group: GroupInfo;
  onOpen: () => void;
}) {
  return (
    <Paper
      withBorder
      p="md"
      data-testid="employee-card"
      style={{ borderTop: `3px solid var(--mantine-color-${group.color}-6)`, cursor: 'pointer' }}
      onClick={onOpen}
    >
      <Stack gap="sm">
        <Group gap="sm" wrap="nowrap">
          <EmployeeAvatar employee={employee} size={44} />
          <UnstyledButton style={{ minWidth: 0 }}>
            <Text fw={600} lineClamp={2} style={{ overflowWrap: 'anywhere' }}>
              {employee.name}
            </Text>
          </UnstyledButton>
        </Group>
        <Text size="sm" c="dimmed" lineClamp={2} mih={40}>
          {employee.course?.name ?? T.noCourse}
        </Text>
        <Group justify="space-between" wrap="nowrap">
          <Deadline employee={employee} group={group} />
          <Group gap={6} wrap="nowrap">
            <ProgressRing value={employee.percent} size={20} label={employee.course?.name ?? T.colProgress} />
            <Text size="sm" fw={600}>
              {employee.percent}%
            </Text>
          </Group>
        </Group>
      </Stack>
    </Paper>
  );
}

function ListView({ groups, onOpen }: ViewProps) {
  const now = new Date();
  return (
    <Paper withBorder style={{ overflow: 'hidden' }}>
      <Table.ScrollContainer minWidth={860} type="native">
        <Table highlightOnHover verticalSpacing="sm" horizontalSpacing="md" aria-label={T.myEmployees}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{T.colDeadline}</Table.Th>
              <Table.Th>{T.colEmployee}</Table.Th>
              <Table.Th>{T.colEmail}</Table.Th>
              <Table.Th>{T.colCourse}</Table.Th>
              <Table.Th>{T.colProgress}</Table.Th>
              <Table.Th>{T.colActivity}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {groups.flatMap((g) =>
              g.items.map((e) => (
                <Table.Tr
                  key={e.id}
                  data-testid="employee-row"
                  data-group={g.key}
                  onClick={() => onOpen(e.id)}
                  style={{ cursor: 'pointer' }}
                >
                  <Table.Td>
                    <Deadline employee={e} group={g} />
                  </Table.Td>
                  <Table.Td>
                    <Group gap="sm" wrap="nowrap">
                      <EmployeeAvatar employee={e} size={32} />
                      <UnstyledButton>
                        <Text size="sm" fw={600}>
                          {e.name}
                        </Text>
                      </UnstyledButton>
                    </Group>
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm">{e.email}</Text>
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm">{e.course?.name ?? '—'}</Text>
                  </Table.Td>
                  <Table.Td>
                    <Group gap={6} wrap="nowrap">
                      <ProgressRing
                        value={e.percent}
                        size={20}
                        tooltip={e.course ? T.courseProgress(e.course.name) : undefined}
                        label={T.colProgress}
                      />
                      <Text size="sm" fw={600}>
                        {e.percent}%
                      </Text>
                    </Group>
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm" c="dimmed">
                      {lastActivityText(e.last_activity, now)}
                    </Text>
                  </Table.Td>
                </Table.Tr>
              )),
            )}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Paper>
  );
}
