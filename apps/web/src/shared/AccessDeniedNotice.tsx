import { Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconLock } from '@tabler/icons-react';

/** The whole page for a user without the rights to it: a lock, the title and why. */
export function AccessDeniedNotice({ title, hint }: { title: string; hint: string }) {
  return (
    <Paper withBorder p={{ base: 'lg', sm: 48 }} radius="lg">
      <Stack align="center" gap="sm" ta="center">
        <ThemeIcon size={56} radius="xl" variant="light" color="red">
          <IconLock size={28} stroke={1.6} aria-hidden="true" />
        </ThemeIcon>
        <Title order={1} fz={24}>
          {title}
        </Title>
        <Text c="dimmed" maw={420}>
          {hint}
        </Text>
      </Stack>
    </Paper>
  );
}
