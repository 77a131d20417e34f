import { Center, Loader } from '@mantine/core';

/** A centred spinner for the whole viewport (session check, lazy screens). */
export function FullPageLoader() {
  return (
    <Center h="100dvh" role="status" aria-live="polite" aria-label="Загрузка">
      <Loader size="lg" />
    </Center>
  );
}

/** A centred spinner inside the content area. */
export function ContentLoader() {
  return (
    <Center py={80} role="status" aria-live="polite" aria-label="Загрузка">
      <Loader />
    </Center>
  );
}
