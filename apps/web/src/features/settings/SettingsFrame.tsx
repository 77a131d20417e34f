import { Box, Group, Stack, Text, Title, UnstyledButton } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import {
  IconBuildingCommunity,
  IconCertificate,
  IconHistory,
  IconLogin2,
  IconMail,
  IconUsers,
  IconUsersGroup,
  type Icon,
} from '@tabler/icons-react';
import { useEffect, useRef, type ReactNode } from 'react';
import { useLocation } from 'react-router';
import { Link } from '../../shared/Link';
import { ContentLoader } from '../../shared/FullPageLoader';
import { useSession } from '../../shared/session';
import { AUDIT_TEXTS } from './audit';
import { CERTIFICATES_TEXTS } from './certificates';
import { canManageSettings } from './logic';
import { MAIL_LOG_TEXTS } from './mailLog';
import { SIGN_IN_TEXTS } from './signInTexts';
import { T } from './texts';
import { AccessDenied } from './ui';

interface SettingsTab {
  to: string;
  label: string;
  icon: Icon;
}

export const SETTINGS_TABS: SettingsTab[] = [
  { to: '/settings', label: T.tabUsers, icon: IconUsers },
  { to: '/settings/departments', label: T.tabDepartments, icon: IconBuildingCommunity },
  { to: '/settings/groups', label: T.tabGroups, icon: IconUsersGroup },
  { to: '/settings/sign-in', label: SIGN_IN_TEXTS.tab, icon: IconLogin2 },
  { to: '/settings/audit', label: AUDIT_TEXTS.tab, icon: IconHistory },
  { to: '/settings/mail-log', label: MAIL_LOG_TEXTS.tab, icon: IconMail },
  { to: '/settings/certificates', label: CERTIFICATES_TEXTS.tab, icon: IconCertificate },
];

function normalize(path: string): string {
  return path.replace(/\/+$/, '') || '/';
}

/** The section navigation: tabs that are links (docs/product.md §Settings). */
function SettingsNav() {
  const current = normalize(useLocation().pathname);
  // on a phone the tabs scroll sideways: the open one is scrolled into view (the last ones start hidden)
  const navRef = useRef<HTMLElement>(null);
  useEffect(() => {
    const nav = navRef.current;
    const tab = nav?.querySelector('[aria-current="page"]');
    if (!nav || !tab) return;
    const overflow = tab.getBoundingClientRect().right - nav.getBoundingClientRect().right;
    if (overflow > 0) nav.scrollLeft += overflow;
  }, [current]);
  return (
    <Box
      ref={navRef}
      component="nav"
      aria-label="Разделы настроек"
      style={{
        borderBottom: '1px solid var(--mantine-color-gray-3)',
        overflowX: 'auto',
        scrollbarWidth: 'none',
      }}
    >
      <Group gap={0} wrap="nowrap">
        {SETTINGS_TABS.map(({ to, label, icon: TabIcon }) => {
          const active = current === to;
          return (
            <UnstyledButton
              key={to}
              component={Link}
              to={to}
              aria-current={active ? 'page' : undefined}
              data-active={active || undefined}
              // the smaller padding up to xl: seven tabs fit a 1280-px window without scrolling
              px={{ base: 'sm', xl: 'md' }}
              py="sm"
              style={{
                display: 'flex',
                alignItems: 'center',
                gap: 8,
                whiteSpace: 'nowrap',
                marginBottom: -1,
                borderBottom: `2px solid ${active ? 'var(--mantine-color-brand-7)' : 'transparent'}`,
                color: active ? 'var(--mantine-color-brand-7)' : 'var(--mantine-color-gray-7)',
                fontWeight: active ? 600 : 500,
                borderRadius: 'var(--mantine-radius-sm) var(--mantine-radius-sm) 0 0',
              }}
            >
              <Box component="span" visibleFrom="xs" style={{ display: 'inline-flex' }}>
                <TabIcon size={18} stroke={1.8} aria-hidden="true" />
              </Box>
              <Text inherit fz="sm">
                {label}
              </Text>
            </UnstyledButton>
          );
        })}
      </Group>
    </Box>
  );
}

/**
 * Frame of the three settings tabs: title and section navigation. Anyone but an admin gets
 * 'Доступ запрещен' and the tab itself is not rendered, so no call is made.
 */
export function SettingsFrame({ children }: { children: ReactNode }) {
  const { user, isLoading } = useSession();
  useDocumentTitle(T.title);
  if (isLoading) return <ContentLoader />;
  if (!canManageSettings(user)) return <AccessDenied />;
  return (
    <Stack gap="lg">
      <Title order={1} fz={{ base: 24, sm: 28 }}>
        {T.title}
      </Title>
      <SettingsNav />
      {children}
    </Stack>
  );
}
