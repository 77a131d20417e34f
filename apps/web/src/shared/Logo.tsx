import { Group, Text, useMantineTheme } from '@mantine/core';

interface LogoMarkProps {
  size?: number;
}

/** The product mark: a mortarboard on a rounded square in the brand colour. Decorative. */
export function LogoMark({ size = 36 }: LogoMarkProps) {
  const theme = useMantineTheme();
  const fill = theme.colors[theme.primaryColor]?.[7] ?? '#1150c6';
  return (
    <svg width={size} height={size} viewBox="0 0 32 32" aria-hidden="true" focusable="false">
      <rect width="32" height="32" rx="8" fill={fill} />
      <path
        d="M16 7 4 13l12 6 9-4.5V21h2v-8L16 7Zm-7 9.2V21c0 1.9 3.1 4 7 4s7-2.1 7-4v-4.8l-7 3.5-7-3.5Z"
        fill="#fff"
      />
    </svg>
  );
}

interface LogoProps {
  /** Company name shown beside the mark; nothing when empty. */
  name?: string | undefined;
  size?: number;
  /** Hide the name below this breakpoint (narrow phones). */
  nameVisibleFrom?: 'xs' | 'sm' | 'md';
}

export function Logo({ name, size = 36, nameVisibleFrom }: LogoProps) {
  return (
    <Group gap="sm" wrap="nowrap">
      <LogoMark size={size} />
      {name ? (
        <Text component="span" fw={700} fz="lg" c="dark.8" lh={1.2} lineClamp={1} visibleFrom={nameVisibleFrom}>
          {name}
        </Text>
      ) : null}
    </Group>
  );
}
