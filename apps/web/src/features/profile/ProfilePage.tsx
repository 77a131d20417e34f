import { initials, type Profile, type ProfilePreferencesChange } from '@lms/contract';
import {
  Avatar,
  Box,
  Button,
  Divider,
  Group,
  Paper,
  SimpleGrid,
  Stack,
  Switch,
  Text,
  ThemeIcon,
  Title,
} from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { IconLock, IconMail } from '@tabler/icons-react';
import { useId, useState, type FormEvent, type ReactNode } from 'react';
import { messageOr } from '../../lib/errors';
import { LoadErrorNotice, LoadingStatus } from '../../shared/ListStates';
import { SecretInput } from '../../shared/SecretInput';
import { usePasswordForm } from '../../shared/usePasswordForm';
import { hideToast, toastError, toastSuccess } from '../../shared/toast';
import { checkPasswordForm, EMPTY_PASSWORD_FORM, profileView, SUBMIT_GREEN, type PasswordField } from './profile';
import { useChangePassword, useProfile, useSavePreferences } from './queries';
import { PROFILE_TEXTS as T } from './texts';
import { MyCertificates } from './MyCertificates';

/** One toast at a time for the password form: a new error replaces the last one. */
const PASSWORD_TOAST_ID = 'profile-password';
const PREFERENCES_TOAST_ID = 'profile-preferences';

function InfoRow({ label, value }: { label: string; value: string }) {
  return (
    <Box>
      <Text component="dt" size="sm" c="dimmed">
        {label}
      </Text>
      <Text component="dd" m={0} fw={500} style={{ overflowWrap: 'anywhere' }}>
        {value}
      </Text>
    </Box>
  );
}

/** A card of the profile page with its round icon and title (the title names the section). */
function IconCard({
  titleId,
  icon,
  title,
  children,
}: {
  titleId: string;
  icon: ReactNode;
  title: string;
  children: ReactNode;
}) {
  return (
    <Paper component="section" aria-labelledby={titleId} withBorder radius="md" p={{ base: 'lg', sm: 'xl' }}>
      <Stack gap="lg">
        <Group gap="sm" wrap="nowrap">
          <ThemeIcon size={40} radius="xl" variant="light" aria-hidden="true">
            {icon}
          </ThemeIcon>
          <Title order={2} id={titleId} fz={{ base: 20, sm: 22 }}>
            {title}
          </Title>
        </Group>
        {children}
      </Stack>
    </Paper>
  );
}

/** A mail preference: a switch with its hint. */
function MailSwitch({
  label,
  description,
  checked,
  onChange,
}: {
  label: string;
  description: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
}) {
  return (
    <Switch
      size="md"
      label={label}
      description={description}
      checked={checked}
      onChange={(event) => onChange(event.currentTarget.checked)}
      styles={{ label: { fontWeight: 500 } }}
    />
  );
}

/** The read-only card: avatar with the name and role, then department, position and email. */
function ProfileCard({ profile }: { profile: Profile }) {
  const view = profileView(profile);
  const titleId = useId();
  return (
    <Paper component="section" aria-labelledby={titleId} withBorder radius="md" p={{ base: 'lg', sm: 'xl' }}>
      <Stack gap="lg">
        <Group gap="md" wrap="nowrap">
          <Avatar size={72} radius="xl" color="initials" name={view.fullName} aria-hidden="true">
            {initials(profile)}
          </Avatar>
          <Stack gap={4} miw={0}>
            <Title order={2} id={titleId} fz={{ base: 20, sm: 22 }} style={{ overflowWrap: 'anywhere' }}>
              {view.fullName}
            </Title>
            <Text c="dimmed" data-testid="profile-role">
              {view.role}
            </Text>
          </Stack>
        </Group>
        <Divider />
        <Stack component="dl" gap="md" m={0}>
          <InfoRow label={T.fullName} value={view.fullName} />
          <InfoRow label={T.department} value={view.department} />
          <InfoRow label={T.position} value={view.position} />
          <InfoRow label={T.email} value={view.email} />
        </Stack>
      </Stack>
    </Paper>
  );
}

function ProfileInfo() {
  const profile = useProfile();
  if (profile.isPending) {
    return (
      <Paper withBorder radius="md">
        <LoadingStatus text={T.loading} />
      </Paper>
    );
  }
  if (profile.isError) {
    return <LoadErrorNotice title={T.loadError} retryLabel={T.retry} query={profile} />;
  }
  return <ProfileCard profile={profile.data} />;
}

/**
 * 'Уведомления' (issue 16): deadline reminder mails on or off, saved at once with a toast. While a
 * save runs the switch shows the value being saved; a failure puts back the saved one. The value
 * being saved is local state set in the change handler itself, so the switch flips in the same
 * render as the click (the mutation's own state reaches the component a tick later).
 */
function MailCard({ profile }: { profile: Profile }) {
  const save = useSavePreferences();
  const titleId = useId();
  const [saving, setSaving] = useState<ProfilePreferencesChange | null>(null);
  const checked = saving?.reminder_mails ?? profile.reminder_mails;
  const digest = saving?.digest_mails ?? profile.digest_mails;
  const onChange = (change: { reminder_mails?: boolean; digest_mails?: boolean }) => {
    hideToast(PREFERENCES_TOAST_ID);
    const isDigest = change.digest_mails !== undefined;
    const body: ProfilePreferencesChange = { reminder_mails: change.reminder_mails ?? checked, ...change };
    setSaving(body);
    save.mutate(body, {
      onSettled: () => setSaving(null),
      onSuccess: (saved) =>
        toastSuccess(
          isDigest
            ? saved.digest_mails
              ? T.digestMailsOn
              : T.digestMailsOff
            : saved.reminder_mails
              ? T.reminderMailsOn
              : T.reminderMailsOff,
        ),
      onError: (error) => toastError(messageOr(error, T.preferencesFailed), PREFERENCES_TOAST_ID),
    });
  };
  return (
    <IconCard titleId={titleId} icon={<IconMail size={22} stroke={1.8} />} title={T.mailTitle}>
      <MailSwitch
        label={T.reminderMails}
        description={T.reminderMailsHint}
        checked={checked}
        onChange={(on) => onChange({ reminder_mails: on })}
      />
      {digest !== null && (
        <MailSwitch
          label={T.digestMails}
          description={T.digestMailsHint}
          checked={digest}
          onChange={(on) => onChange({ digest_mails: on })}
        />
      )}
    </IconCard>
  );
}

/** The mail card once the profile is there (its loading and error show in the profile card). */
function ProfileMail() {
  const profile = useProfile();
  return profile.data ? <MailCard profile={profile.data} /> : null;
}

/**
 * 'Смена пароля' (docs/product.md §Profile): the client checks run before sending; a success clears
 * the three fields; a failure shows the server's message or 'Ошибка при смене пароля'.
 */
function PasswordCard() {
  const password = usePasswordForm<PasswordField>(EMPTY_PASSWORD_FORM, PASSWORD_TOAST_ID);
  const change = useChangePassword();
  const saving = change.isPending;
  const titleId = useId();

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (saving) return;
    if (!password.passes(checkPasswordForm(password.form))) return;
    change.mutate(password.form, {
      onSuccess: () => {
        password.reset();
        hideToast(PASSWORD_TOAST_ID);
        toastSuccess(T.changed);
      },
      onError: (error) => toastError(messageOr(error, T.changeFailed), PASSWORD_TOAST_ID),
    });
  };

  return (
    <IconCard titleId={titleId} icon={<IconLock size={22} stroke={1.8} />} title={T.passwordTitle}>
      <form onSubmit={onSubmit} noValidate aria-labelledby={titleId}>
        <Stack gap="md">
          <SecretInput label={T.oldPassword} autoComplete="current-password" {...password.field('old_password')} />
          <SecretInput label={T.newPassword} autoComplete="new-password" {...password.field('new_password')} />
          <SecretInput
            label={T.confirmation}
            autoComplete="new-password"
            {...password.field('new_password_confirmation')}
          />
          <Group justify="flex-end" mt="xs">
            <Button type="submit" color={SUBMIT_GREEN} disabled={saving} w={{ base: '100%', xs: 'auto' }}>
              {saving ? T.saving : T.submit}
            </Button>
          </Group>
        </Stack>
      </form>
    </IconCard>
  );
}

/** Profile (/profile, docs/product.md §Profile): the read-only card, the password change and the mail preferences. */
export default function ProfilePage() {
  useDocumentTitle(T.title);
  return (
    <Stack gap="lg">
      <Title order={1} fz={{ base: 24, sm: 28 }}>
        {T.title}
      </Title>
      <SimpleGrid type="container" cols={{ base: 1, '760px': 2 }} spacing="lg" verticalSpacing="lg">
        <ProfileInfo />
        <PasswordCard />
        <ProfileMail />
      </SimpleGrid>
      <MyCertificates />
    </Stack>
  );
}
