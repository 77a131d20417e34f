import { LEARNING_MESSAGES } from '@lms/contract';
import { Alert, Anchor, Group, Loader, Paper, Stack, Text, type MantineSpacing } from '@mantine/core';
import { IconAlertTriangle, IconArrowLeft } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { serverMessage } from '../../lib/errors';
import { Link } from '../../shared/Link';
import { MissingNotice } from '../../shared/ListStates';
import { LEARNING_TEXTS as T } from './texts';

/** 'Загрузка...' with a spinner. */
export function Loading() {
  return (
    <Group gap="sm" py="xl" justify="center" role="status" aria-live="polite">
      <Loader size="sm" />
      <Text c="dimmed">{T.loading}</Text>
    </Group>
  );
}

/** The server's message of a failed load, else the error's own text. */
export function errorText(error: unknown): string {
  return serverMessage(error) ?? (error instanceof Error && error.message ? error.message : T.unknownError);
}

/** 'Ошибка: {message}' on the page (docs/product.md §Course page). */
export function LoadError({ error }: { error: unknown }) {
  return (
    <Alert color="red" variant="light" icon={<IconAlertTriangle size={20} />} role="alert">
      {T.error(errorText(error))}
    </Alert>
  );
}

/**
 * A missing course, lesson or test (a 404) in place of the whole page (issue 30): the server's words
 * ('Курс не найден', 'Урок не найден', 'Тест не найден') once, and the way back — to the course,
 * or home when the course itself is missing.
 */
export function Missing({ error, fallback, courseId }: { error: unknown; fallback: string; courseId: number | null }) {
  const title = serverMessage(error) ?? fallback;
  const courseGone = courseId === null || title === LEARNING_MESSAGES.courseNotFound;
  const back = courseGone ? { to: '/', label: T.back } : { to: `/courses/${courseId}`, label: T.toCourse };
  return <MissingNotice title={title} hint={T.missingHint} back={back} />;
}

/** The small '← К курсу' link on top of a lesson, test, result or answers page. */
export function BackLink({ to, children }: { to: string; children: ReactNode }) {
  return (
    <Anchor component={Link} to={to} size="sm" fw={500}>
      <Group gap={6} wrap="nowrap" component="span">
        <IconArrowLeft size={16} aria-hidden />
        {children}
      </Group>
    </Anchor>
  );
}

/** The bordered card that holds a question or a result on the learner's pages. */
export function PageCard({ gap = 'lg', children }: { gap?: MantineSpacing; children: ReactNode }) {
  return (
    <Paper withBorder p={{ base: 'md', sm: 'xl' }} radius="lg">
      <Stack gap={gap}>{children}</Stack>
    </Paper>
  );
}
