import { Box, Paper, Stack, Text, Title } from '@mantine/core';
import type { FormEvent, ReactNode } from 'react';
import { ContentLoader } from './FullPageLoader';
import { LogoMark } from './Logo';

interface GuestCardProps {
  title: string;
  subtitle: string;
  /** A spinner stands instead of the form while what it needs loads (the login domain). */
  loading?: boolean;
  children: ReactNode;
}

/** The card of a public page (sign-in, recovery): the mark, a title, a dimmed line, then the form. */
export function GuestCard({ title, subtitle, loading = false, children }: GuestCardProps) {
  return (
    <Paper withBorder shadow="sm" radius="lg" p={{ base: 'lg', xs: 40 }} w="100%" maw={440}>
      <Stack gap="xs" align="center" mb="xl">
        <LogoMark size={56} />
        <Title order={1} fz={24} ta="center" mt="xs">
          {title}
        </Title>
        <Text c="dimmed" size="sm" ta="center">
          {subtitle}
        </Text>
      </Stack>
      {loading ? <ContentLoader /> : children}
    </Paper>
  );
}

/**
 * The form of a public page: our own checks speak instead of the browser's, the fields one under
 * another (sign-in, recovery, own password).
 */
export function GuestForm({
  label,
  onSubmit,
  children,
}: {
  label: string;
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
  children: ReactNode;
}) {
  return (
    <form onSubmit={onSubmit} noValidate aria-label={label}>
      <Stack gap="md">{children}</Stack>
    </form>
  );
}

/** The page of the public screens (sign-in, recovery, own password): the card centred on light grey. */
export function GuestBackdrop({ children }: { children: ReactNode }) {
  return (
    <Box
      component="main"
      bg="gray.0"
      mih="100dvh"
      p="md"
      style={{ display: 'flex', alignItems: 'center', justifyContent: 'center' }}
    >
      {children}
    </Box>
  );
}
