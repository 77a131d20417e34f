import { Button, Center, Paper, Stack, Text, Title } from '@mantine/core';
import { useEffect } from 'react';
import { useRouteError } from 'react-router';
import { browser } from '../lib/browser';

/** Shown when a screen fails to load or render (e.g. a chunk is gone after a deploy). */
export function RouteError() {
  const error = useRouteError();
  useEffect(() => {
    console.error(error);
  }, [error]);
  return (
    <Center component="main" bg="gray.0" mih="100dvh" p="md">
      <Paper withBorder p={{ base: 'lg', sm: 48 }} maw={480} w="100%">
        <Stack align="center" gap="sm" ta="center">
          <Title order={1} fz={24}>
            Не удалось открыть страницу
          </Title>
          <Text c="dimmed">Обновите страницу. Если ошибка повторится, попробуйте позже.</Text>
          <Button mt="sm" onClick={() => browser.reload()}>
            Обновить страницу
          </Button>
        </Stack>
      </Paper>
    </Center>
  );
}
