import { Button, Group, Loader, Paper, Stack, Text, ThemeIcon } from '@mantine/core';
import { IconAlertTriangle, IconSearchOff } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { notFoundText } from '../lib/search';

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

interface LoadErrorNoticeProps {
  title: string;
  retryLabel: string;
  onRetry: () => void;
  /** The retry button spins while the list is asked for again. */
  retrying: boolean;
}

/** A list that failed to load, with a retry button. */
export function LoadErrorNotice({ title, retryLabel, onRetry, retrying }: LoadErrorNoticeProps) {
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
