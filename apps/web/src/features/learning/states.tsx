import { Alert, Group, Loader, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { serverMessage } from '../../lib/errors';
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

/** 'Ошибка: {message}' on the page (spec 02 §8). */
export function LoadError({ error }: { error: unknown }) {
  return (
    <Alert color="red" variant="light" icon={<IconAlertTriangle size={20} />} role="alert">
      {T.error(errorText(error))}
    </Alert>
  );
}
