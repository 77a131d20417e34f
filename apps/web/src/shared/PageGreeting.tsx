import { Stack, Text, Title } from '@mantine/core';
import { greeting } from '../lib/greeting';

/** The page heading '<Имя>, добрый день!' (docs/product.md §Home) with a dimmed subtitle under it. */
export function PageGreeting({ userName, subtitle }: { userName: string | null | undefined; subtitle: string }) {
  return (
    <Stack gap={6}>
      <Title order={1} fz={{ base: 24, sm: 30 }}>
        {greeting(userName)}
      </Title>
      <Text c="dimmed" fz={{ base: 'md', sm: 'lg' }}>
        {subtitle}
      </Text>
    </Stack>
  );
}
