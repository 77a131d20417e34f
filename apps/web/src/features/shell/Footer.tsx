import { ActionIcon, Anchor, Box, Group, Stack, Text } from '@mantine/core';
import { createElement } from 'react';
import { Logo } from '../../shared/Logo';
import { useSocialLinks } from './queries';
import { isOpenableSocialLink, socialIcon } from './socialIcons';

interface FooterProps {
  companyName: string | undefined;
}

/** Footer (docs/product.md §Shell): logo, two placeholder links, copyright, social links in a new tab. */
export function Footer({ companyName }: FooterProps) {
  const socialLinks = useSocialLinks().filter((link) => isOpenableSocialLink(link.link));
  const year = new Date().getFullYear();
  const name = companyName ?? '';

  return (
    <Box
      component="footer"
      bg="white"
      px={{ base: 'md', sm: 'xl' }}
      py="lg"
      style={{ borderTop: '1px solid var(--mantine-color-gray-2)' }}
    >
      <Stack maw={1280} mx="auto" gap="md">
        <Group justify="space-between" align="center" gap="md">
          <Logo name={name} size={28} />
          {socialLinks.length > 0 ? (
            <Group gap={6} component="ul" m={0} p={0} style={{ listStyle: 'none' }} aria-label="Мы в социальных сетях">
              {socialLinks.map((link) => {
                return (
                  <li key={String(link.id)}>
                    <ActionIcon
                      component="a"
                      href={link.link}
                      target="_blank"
                      rel="noopener noreferrer"
                      aria-label={link.name}
                      title={link.name}
                      variant="subtle"
                      color="gray"
                      size="lg"
                      radius="xl"
                    >
                      {createElement(socialIcon(link.icon), { size: 20, stroke: 1.6, 'aria-hidden': true })}
                    </ActionIcon>
                  </li>
                );
              })}
            </Group>
          ) : null}
        </Group>
        <Group justify="space-between" gap="xs" align="center" style={{ rowGap: 8 }}>
          <Text size="sm" c="dimmed">
            {`© ${year} ${name}`.trim()}
          </Text>
          <Group gap="lg" component="nav" aria-label="Документы" style={{ rowGap: 4 }}>
            <Anchor href="#" size="sm" c="dimmed">
              Политика конфиденциальности
            </Anchor>
            <Anchor href="#" size="sm" c="dimmed">
              Лицензионное соглашение
            </Anchor>
          </Group>
        </Group>
      </Stack>
    </Box>
  );
}
