import type { EmployeeDetail } from '@lms/contract';
import {
  Accordion,
  Box,
  Button,
  CopyButton,
  Group,
  Image,
  Paper,
  SimpleGrid,
  Stack,
  Text,
  ThemeIcon,
  Title,
  Tooltip,
  UnstyledButton,
} from '@mantine/core';
import { IconArrowLeft, IconCalendar, IconCheck, IconCopy, IconX } from '@tabler/icons-react';
import { useMediaQuery } from '@mantine/hooks';
import { useEffect, useState } from 'react';
import { EmployeeAvatar } from './EmployeeAvatar';
import { EmployeeCertificates } from './EmployeeCertificates';
import { messageOr } from '../../lib/errors';
import { AppModal } from '../../shared/AppModal';
import { usePublicConfig } from '../../shared/config';
import { COURSE_PLACEHOLDER_IMAGE } from '../../shared/CourseCard';
import { LoadingStatus } from '../../shared/ListStates';
import { toastError } from '../../shared/toast';
import classes from './analytics.module.css';
import {
  courseDatesText,
  formatDate,
  itemKindLabel,
  itemTone,
  lastActivityText,
  moduleDone,
  TEXT_COLOR,
} from './logic';
import { ProgressRing } from './ProgressRing';
import { useEmployee, useEmployeeCourse } from './queries';
import { T } from './texts';

/** The employee modal is at most 1270 px wide (docs/product.md §Analytics). */
export const EMPLOYEE_MODAL_WIDTH = 1270;

interface QueryLike {
  isError: boolean;
  error: unknown;
  errorUpdatedAt: number;
}

/** Runs `onError` with the server's message (else `fallback`) once per failure of a query. */
function useFailure(query: QueryLike, fallback: string, onError: (message: string) => void) {
  const { isError, error, errorUpdatedAt } = query;
  useEffect(() => {
    if (isError) onError(messageOr(error, fallback));
    // once per failure
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [isError, errorUpdatedAt]);
}

/** The employee modal (docs/product.md §Analytics): the course list panel, and the course detail that slides in. */
export function EmployeeModal({ userId, onClose }: { userId: number | null; onClose: () => void }) {
  const employee = useEmployee(userId);
  const phone = useMediaQuery('(max-width: 47.99em)') ?? false;
  const [courseId, setCourseId] = useState<number | null>(null);

  // a new employee starts on the course list
  useEffect(() => setCourseId(null), [userId]);

  useFailure(employee, T.employeeError, (message) => {
    toastError(message, 'analytics-employee');
    onClose();
  });

  const user = employee.data;
  return (
    <AppModal
      opened={userId !== null}
      onClose={onClose}
      size={EMPLOYEE_MODAL_WIDTH}
      fullScreen={phone}
      title={user?.name ?? T.modalTitle}
      closeButtonProps={{ 'aria-label': T.close }}
      styles={{ title: { fontWeight: 700, fontSize: 'var(--mantine-font-size-lg)' } }}
    >
      {employee.isPending || !user ? (
        <LoadingStatus text={T.employeeLoading} />
      ) : courseId === null ? (
        <CourseListPanel user={user} onCourse={setCourseId} />
      ) : (
        <CourseDetailPanel courseId={courseId} userId={user.id} onBack={() => setCourseId(null)} />
      )}
    </AppModal>
  );
}

function CopyIdButton({ id }: { id: number }) {
  return (
    <CopyButton value={String(id)} timeout={2000}>
      {({ copied, copy }) => (
        <Tooltip label={T.copied} opened={copied} position="top" withArrow>
          <Button
            size="compact-sm"
            variant="light"
            color={copied ? 'green' : 'gray'}
            onClick={copy}
            aria-label={`${T.copyId}: ${id}`}
            leftSection={
              copied ? <IconCheck size={14} aria-hidden="true" /> : <IconCopy size={14} aria-hidden="true" />
            }
          >
            ID: {id}
          </Button>
        </Tooltip>
      )}
    </CopyButton>
  );
}

function CourseListPanel({ user, onCourse }: { user: EmployeeDetail; onCourse: (id: number) => void }) {
  const timeZone = usePublicConfig().data?.time_zone;
  return (
    <Stack gap="lg" data-testid="employee-courses-panel">
      <Paper withBorder p={{ base: 'md', sm: 'lg' }} bg="gray.0">
        <Group justify="space-between" align="flex-start" gap="lg">
          <Group gap="md" wrap="nowrap" align="flex-start" style={{ minWidth: 0, flex: '1 1 320px' }}>
            <EmployeeAvatar employee={user} size={64} />
            <Stack gap={4} style={{ minWidth: 0 }}>
              <Box>
                <CopyIdButton id={user.id} />
              </Box>
              <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                {user.position || T.positionPlaceholder}
                {user.department ? ` ${T.in} ${user.department}` : ''} | {user.email}
              </Text>
              {user.manager ? (
                <Text size="sm">
                  <Text span c="dimmed">
                    {T.manager}:
                  </Text>{' '}
                  {user.manager}
                </Text>
              ) : null}
              <Text size="sm">
                <Text span c="dimmed">
                  {T.lastOnline}:
                </Text>{' '}
                {lastActivityText(user.last_activity)}
              </Text>
            </Stack>
          </Group>
          <Group gap="sm" wrap="nowrap">
            <ProgressRing value={user.total_progress} size={40} label={T.totalProgress} />
            <Stack gap={0}>
              <Text fw={700} fz="xl" lh={1.2}>
                {user.total_progress}%
              </Text>
              <Text size="sm" c="dimmed">
                {T.totalProgress}
              </Text>
            </Stack>
          </Group>
        </Group>
      </Paper>

      <Stack gap="sm" component="section" aria-labelledby="employee-courses">
        <Title order={3} fz="lg" id="employee-courses">
          {T.courses}
        </Title>
        {user.courses.length === 0 ? (
          <Text c="dimmed">{T.noCourses}</Text>
        ) : (
          <SimpleGrid cols={{ base: 1, md: 2 }} spacing="sm">
            {user.courses.map((c) => (
              <UnstyledButton
                key={c.id}
                className={classes.courseRow}
                onClick={() => onCourse(c.id)}
                data-testid="employee-course"
              >
                <Group gap="md" wrap="nowrap">
                  <Image
                    src={c.image ?? COURSE_PLACEHOLDER_IMAGE}
                    fallbackSrc={COURSE_PLACEHOLDER_IMAGE}
                    alt=""
                    w={{ base: 44, sm: 56 }}
                    h={{ base: 44, sm: 56 }}
                    radius="md"
                    style={{ flex: 'none' }}
                  />
                  <Stack gap={2} style={{ flex: 1, minWidth: 0 }}>
                    <Text fw={600} lineClamp={3} style={{ overflowWrap: 'anywhere' }}>
                      {c.name}
                    </Text>
                    {c.category_name && (
                      <Text size="xs" c="dimmed">
                        {c.category_name}
                      </Text>
                    )}
                    <Group gap="sm">
                      <Text size="xs" c="dimmed">
                        {T.itemsDone(c.items_completed, c.items_total)}
                      </Text>
                      {c.deadline && (
                        <Group gap={4} wrap="nowrap">
                          <IconCalendar
                            size={14}
                            aria-hidden="true"
                            color={c.is_expired ? 'var(--mantine-color-red-7)' : undefined}
                          />
                          <Text
                            size="xs"
                            c={c.is_expired ? TEXT_COLOR.red : 'dimmed'}
                            fw={c.is_expired ? 600 : undefined}
                          >
                            {formatDate(c.deadline, timeZone)}
                          </Text>
                        </Group>
                      )}
                    </Group>
                  </Stack>
                  <Group gap={6} wrap="nowrap">
                    <ProgressRing
                      value={c.progress}
                      size={40}
                      error={c.is_expired}
                      tooltip={c.is_expired ? T.expired : undefined}
                      focusable={false}
                      label={c.name}
                    />
                    <Text fw={600} size="sm" c={c.is_expired ? TEXT_COLOR.red : undefined} miw={38} ta="right">
                      {c.progress}%
                    </Text>
                  </Group>
                </Group>
              </UnstyledButton>
            ))}
          </SimpleGrid>
        )}
      </Stack>
      <EmployeeCertificates userId={user.id} />
    </Stack>
  );
}

function CourseDetailPanel({ courseId, userId, onBack }: { courseId: number; userId: number; onBack: () => void }) {
  const course = useEmployeeCourse(courseId, userId);
  const timeZone = usePublicConfig().data?.time_zone;
  useFailure(course, T.courseError, (message) => {
    toastError(message, 'analytics-course');
    onBack();
  });

  const back = (
    <Button variant="subtle" leftSection={<IconArrowLeft size={16} aria-hidden="true" />} onClick={onBack} px="xs">
      {T.back}
    </Button>
  );
  const data = course.data;
  if (!data) {
    return (
      <Stack gap="sm" className={classes.slideIn}>
        <Box>{back}</Box>
        <LoadingStatus text={T.courseLoading} />
      </Stack>
    );
  }
  const dates = courseDatesText(data, timeZone);
  return (
    <Stack gap="md" className={classes.slideIn} data-testid="course-detail-panel">
      <Group justify="space-between" gap="sm">
        {back}
        {dates && (
          <Text size="sm" c="dimmed">
            {dates}
          </Text>
        )}
      </Group>
      <Paper withBorder p={{ base: 'md', sm: 'lg' }} bg="gray.0">
        <Group justify="space-between" align="flex-start" gap="md">
          <Stack gap={4} style={{ flex: '1 1 320px', minWidth: 0 }}>
            <Title order={3} fz="xl" style={{ overflowWrap: 'anywhere' }}>
              {data.name}
            </Title>
            {data.description && (
              <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere', whiteSpace: 'pre-line' }}>
                {data.description}
              </Text>
            )}
            <Text size="sm">{T.itemsDone(data.items_completed, data.items_total)}</Text>
          </Stack>
          <Group gap="sm" wrap="nowrap">
            <ProgressRing value={data.progress} size={40} label={data.name} />
            <Text fw={700} fz="xl">
              {data.progress}%
            </Text>
          </Group>
        </Group>
      </Paper>

      <Accordion
        multiple
        variant="separated"
        radius="md"
        transitionDuration={300}
        aria-label={T.modules}
        chevronPosition="right"
      >
        {data.modules.map((m) => {
          const done = moduleDone(m);
          return (
            <Accordion.Item key={m.id} value={String(m.id)} data-testid="analytics-module">
              <Accordion.Control
                icon={
                  done ? (
                    <ThemeIcon size={22} radius="xl" color="green" aria-label={T.moduleDone} role="img">
                      <IconCheck size={14} aria-hidden="true" />
                    </ThemeIcon>
                  ) : undefined
                }
              >
                <Group justify="space-between" wrap="nowrap" gap="sm">
                  <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
                    {m.name}
                  </Text>
                  <Text size="sm" c={done ? TEXT_COLOR.green : 'dimmed'} style={{ flex: 'none' }} pr="xs">
                    {m.items_completed}/{m.items_total}
                  </Text>
                </Group>
              </Accordion.Control>
              <Accordion.Panel>
                <Stack gap={6} component="ul" m={0} p={0} style={{ listStyle: 'none' }}>
                  {m.items.map((item) => {
                    const tone = itemTone(item.status);
                    return (
                      <Group
                        key={`${item.type}:${item.id}`}
                        component="li"
                        gap="sm"
                        wrap="nowrap"
                        data-status={item.status}
                        data-testid="analytics-item"
                        px="sm"
                        py={6}
                        style={{
                          borderRadius: 'var(--mantine-radius-sm)',
                          background: tone.icon === 'none' ? undefined : `var(--mantine-color-${tone.color}-0)`,
                        }}
                      >
                        <ThemeIcon
                          size={20}
                          radius="xl"
                          variant={tone.icon === 'none' ? 'outline' : 'filled'}
                          color={tone.color}
                          role="img"
                          aria-label={tone.label}
                        >
                          {tone.icon === 'check' ? (
                            <IconCheck size={12} aria-hidden="true" />
                          ) : tone.icon === 'cross' ? (
                            <IconX size={12} aria-hidden="true" />
                          ) : null}
                        </ThemeIcon>
                        <Text
                          size="sm"
                          c={tone.icon === 'none' ? undefined : TEXT_COLOR[tone.color]}
                          style={{ overflowWrap: 'anywhere' }}
                        >
                          <Text span fw={600}>
                            {itemKindLabel(item)}
                          </Text>{' '}
                          {item.name}
                          {item.score === null || item.score === undefined ? null : (
                            <Text span fw={600}>{` · ${T.score(item.score)}`}</Text>
                          )}
                        </Text>
                      </Group>
                    );
                  })}
                </Stack>
              </Accordion.Panel>
            </Accordion.Item>
          );
        })}
      </Accordion>
    </Stack>
  );
}
