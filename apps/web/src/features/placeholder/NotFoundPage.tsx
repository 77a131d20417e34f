import { Button, Center, Paper, Stack, Text, Title } from '@mantine/core';
import { Link } from '../../shared/Link';

/** Unknown paths. */
export default function NotFoundPage() {
  return (
    <Center component="main" bg="gray.0" mih="100dvh" p="md">
      <Paper withBorder p={{ base: 'lg', sm: 48 }} maw={480} w="100%">
        <Stack align="center" gap="sm" ta="center">
          <Text fz={56} fw={800} c="brand.7" lh={1}>
            404
          </Text>
          <Title order={1} fz={24}>
            Страница не найдена
          </Title>
          <Text c="dimmed">Возможно, адрес набран с ошибкой или страница была удалена.</Text>
          <Button component={Link} to="/" mt="sm">
            На главную
          </Button>
        </Stack>
      </Paper>
    </Center>
  );
}
