import { Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconTools } from '@tabler/icons-react';

/** Stand-in for every screen that a later issue builds. */
export default function PlaceholderPage() {
  return (
    <Paper withBorder p={{ base: 'lg', sm: 48 }}>
      <Stack align="center" gap="sm" ta="center">
        <ThemeIcon size={56} radius="xl" variant="light">
          <IconTools size={28} stroke={1.6} aria-hidden="true" />
        </ThemeIcon>
        <Title order={1} fz={24}>
          Раздел в разработке
        </Title>
        <Text c="dimmed" maw={420}>
          Этот раздел скоро появится. Загляните сюда немного позже.
        </Text>
      </Stack>
    </Paper>
  );
}
