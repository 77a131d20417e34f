import { Button, Group, Loader, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconAlertTriangle, IconArrowLeft, IconFileUnknown, IconSearchOff } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { notFoundText } from '../lib/search';
import { Link } from './Link';

interface NoticeProps {
  icon: ReactNode;
  color?: string;
  title: string;
  /** A hint or a button under the title. */
  children?: ReactNode;
}

/** A bordered card with a round icon and a title, in place of a list that has nothing to show. */
export function Notice({ icon, color, title, children }: NoticeProps) {
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

/** A small spinner and a dimmed text while a list loads. */
export function LoadingStatus({ text }: { text: string }) {
  return (
    <Group gap="sm" py="xl" justify="center" role="status" aria-live="polite">
      <Loader size="sm" />
      <Text c="dimmed">{text}</Text>
    </Group>
  );
}

/** A query that can be asked again: its retry button spins while it is. */
export interface RetryableQuery {
  refetch: () => unknown;
  isFetching: boolean;
}

type LoadErrorNoticeProps = { title: string; retryLabel: string } & (
  | { query: RetryableQuery }
  | {
      onRetry: () => void;
      /** The retry button spins while the list is asked for again. */
      retrying: boolean;
    }
);

/** A list that failed to load, with a retry button (asking its query again, or calling `onRetry`). */
export function LoadErrorNotice({ title, retryLabel, ...retry }: LoadErrorNoticeProps) {
  const onRetry = 'query' in retry ? () => void retry.query.refetch() : retry.onRetry;
  const retrying = 'query' in retry ? retry.query.isFetching : retry.retrying;
  return (
    <Notice icon={<IconAlertTriangle size={24} aria-hidden="true" />} color="red" title={title}>
      <Button variant="light" mt="xs" onClick={onRetry} loading={retrying}>
        {retryLabel}
      </Button>
    </Notice>
  );
}

interface NothingFoundNoticeProps {
  query: string;
  resetLabel: string;
  onReset: () => void;
}

/** 'По запросу "…" ничего не найдено', with a button that clears the search. */
export function NothingFoundNotice({ query, resetLabel, onReset }: NothingFoundNoticeProps) {
  return (
    <Notice icon={<IconSearchOff size={24} aria-hidden="true" />} color="gray" title={notFoundText(query)}>
      <Button variant="subtle" onClick={onReset}>
        {resetLabel}
      </Button>
    </Notice>
  );
}

interface MissingNoticeProps {
  /** What is missing, as the server said it ('Курс не найден'): the page's heading, said once. */
  title: string;
  hint: string;
  /** The way back: home, the course, the list of courses. */
  back: { to: string; label: string };
  /** 1 when it stands for the whole page; 2 inside a page that has its own heading. */
  order?: 1 | 2;
}

/**
 * A page whose subject is not there (a 404: deleted, unpublished or never existed), in place of
 * the whole page: the heading says what is missing, once, and a button leads back.
 */
export function MissingNotice({ title, hint, back, order = 1 }: MissingNoticeProps) {
  return (
    <Paper withBorder p={{ base: 'lg', sm: 40 }} data-testid="missing-notice">
      <Stack align="center" gap="xs" ta="center">
        <ThemeIcon size={48} radius="xl" variant="light" color="gray">
          <IconFileUnknown size={24} aria-hidden="true" />
        </ThemeIcon>
        <Title order={order} fz="lg" fw={600}>
          {title}
        </Title>
        <Text c="dimmed" size="sm" maw={420}>
          {hint}
        </Text>
        <Button
          component={Link}
          to={back.to}
          variant="light"
          mt="xs"
          leftSection={<IconArrowLeft size={16} aria-hidden="true" />}
        >
          {back.label}
        </Button>
      </Stack>
    </Paper>
  );
}
