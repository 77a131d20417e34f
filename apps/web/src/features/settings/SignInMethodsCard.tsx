import type { SignInSettings } from '@lms/contract';
import { Alert, Badge, Group, Paper, Skeleton, Stack, Switch, Text, ThemeIcon, Title } from '@mantine/core';
import { IconBuildingSkyscraper, IconKey, IconLock, IconShieldLock, type Icon } from '@tabler/icons-react';
import { useId, useState } from 'react';
import { messageOr } from '../../lib/errors';
import { hideToast, toastError, toastSuccess } from '../../shared/toast';
import { useSaveSignInSettings } from './signIns';
import { SIGN_IN_TEXTS as S } from './signInTexts';
import { ErrorState } from './ui';

/** One toast at a time for the switch: a new outcome replaces the last one. */
const SAVE_TOAST_ID = 'sign-in-settings';

interface SettingsQuery {
  data: SignInSettings | undefined;
  isPending: boolean;
  isError: boolean;
  refetch: () => Promise<unknown>;
}

/**
 * 'Способы входа': which ways in the server is set up for (its environment decides, not this
 * page), and the admin's 'Только вход через SSO'.
 */
export function SignInMethodsCard({ query }: { query: SettingsQuery }) {
  const titleId = useId();
  return (
    <Paper component="section" aria-labelledby={titleId} withBorder radius="lg" p={{ base: 'md', sm: 'xl' }}>
      <Stack gap="md">
        <Group gap="sm" wrap="nowrap">
          <ThemeIcon size={40} radius="xl" variant="light" aria-hidden="true">
            <IconShieldLock size={22} stroke={1.8} />
          </ThemeIcon>
          <Title order={2} id={titleId} fz={{ base: 20, sm: 22 }}>
            {S.methodsTitle}
          </Title>
        </Group>
        <Text size="sm" c="dimmed">
          {S.methodsIntro}
        </Text>
        {query.data ? (
          <MethodsAndSwitch settings={query.data} />
        ) : query.isError ? (
          <ErrorState onRetry={() => void query.refetch()} />
        ) : (
          <Stack gap="sm" aria-hidden="true" data-testid="sign-in-settings-loading">
            {[0, 1, 2].map((n) => (
              <Skeleton key={n} h={44} radius="md" />
            ))}
          </Stack>
        )}
      </Stack>
    </Paper>
  );
}

function MethodsAndSwitch({ settings }: { settings: SignInSettings }) {
  return (
    <>
      <Stack gap="xs" component="ul" m={0} p={0} style={{ listStyle: 'none' }}>
        <Method
          icon={IconLock}
          name={S.password}
          hint={settings.sso_only ? S.passwordHintSsoOnly : S.passwordHint}
          configured
        />
        <Method icon={IconKey} name={S.ldap} hint={S.ldapHint} configured={settings.ldap_auth} />
        <Method icon={IconBuildingSkyscraper} name={S.oidc} hint={S.oidcHint} configured={settings.oidc} />
      </Stack>
      <SsoOnlySwitch settings={settings} />
    </>
  );
}

interface MethodProps {
  icon: Icon;
  name: string;
  hint: string;
  configured: boolean;
}

/** A way in: its name, whether the server is set up for it, and where that is set. */
function Method({ icon: MethodIcon, name, hint, configured }: MethodProps) {
  return (
    <Group component="li" gap="sm" wrap="nowrap" align="flex-start" data-testid="sign-in-method">
      <ThemeIcon size={32} radius="md" variant="light" color={configured ? 'brand' : 'gray'} aria-hidden="true">
        <MethodIcon size={18} stroke={1.8} />
      </ThemeIcon>
      <Stack gap={2} flex={1} miw={0}>
        <Group gap="xs" wrap="wrap">
          <Text size="sm" fw={600}>
            {name}
          </Text>
          <StateBadge on={configured} />
        </Group>
        <Text size="xs" c="dimmed">
          {hint}
        </Text>
      </Stack>
    </Group>
  );
}

/**
 * 'Настроен' green, 'Не настроен' grey; the light variant's text darkened to WCAG AA's 4.5:1 for
 * small text, as the audit tab's badges are.
 */
function StateBadge({ on }: { on: boolean }) {
  const color = on ? 'green' : 'gray';
  return (
    <Badge
      variant="light"
      color={color}
      c={`color-mix(in srgb, var(--mantine-color-${color}-9) 75%, black)`}
      radius="sm"
      tt="none"
      fw={600}
    >
      {on ? S.configured : S.notConfigured}
    </Badge>
  );
}

/**
 * Saved at once with a toast. While a save runs the switch shows the value being saved; a refusal
 * (422: no SSO configured) puts back the saved one. The value being saved is local state set in the
 * change handler itself, so the switch flips in the same render as the click.
 */
function SsoOnlySwitch({ settings }: { settings: SignInSettings }) {
  const save = useSaveSignInSettings();
  const [saving, setSaving] = useState<boolean | null>(null);
  const checked = saving ?? settings.sso_only;
  const sso = settings.ldap_auth || settings.oidc;
  // turning it on needs a way in besides the password; turning it off is always allowed
  const disabled = !sso && !checked;

  const onChange = (on: boolean) => {
    hideToast(SAVE_TOAST_ID);
    setSaving(on);
    save.mutate(on, {
      onSettled: () => setSaving(null),
      onSuccess: (saved) => toastSuccess(saved.message ?? S.saved),
      onError: (error) => toastError(messageOr(error, S.saveError), SAVE_TOAST_ID),
    });
  };

  return (
    <Stack gap="sm" pt="md" style={{ borderTop: '1px solid var(--mantine-color-gray-3)' }}>
      <Switch
        size="md"
        label={S.ssoOnly}
        description={
          <>
            {S.ssoOnlyHint}
            {disabled ? (
              <Text
                component="span"
                display="block"
                size="xs"
                mt={6}
                fw={500}
                // orange.9 alone is 3.9:1 on white: darkened to WCAG AA's 4.5:1 for small text
                c="color-mix(in srgb, var(--mantine-color-orange-9) 75%, black)"
              >
                {S.ssoOnlyUnavailable}
              </Text>
            ) : null}
          </>
        }
        checked={checked}
        disabled={disabled}
        onChange={(event) => onChange(event.currentTarget.checked)}
        styles={{ label: { fontWeight: 600 }, description: { maxWidth: 720 } }}
      />
      {checked && !sso ? (
        <Alert color="orange" variant="light" radius="md" p="sm">
          <Text size="sm">{S.ssoOnlyWithoutSso}</Text>
        </Alert>
      ) : null}
    </Stack>
  );
}
