import type { NewPasswordField } from '@lms/contract';
import { Button, Text } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { type FormEvent } from 'react';
import { messageOr } from '../../lib/errors';
import { usePublicConfig } from '../../shared/config';
import { GuestCard, GuestForm } from '../../shared/GuestCard';
import { SecretInput } from '../../shared/SecretInput';
import { usePasswordForm } from '../../shared/usePasswordForm';
import { useLogout, useSession } from '../../shared/session';
import { hideToast, toastError, toastSuccess } from '../../shared/toast';
import { EMPTY_OWN_PASSWORD, OWN_PASSWORD_TEXTS as T, ownPasswordProblem } from './ownPassword';
import { useSetOwnPassword } from './queries';

const TOAST_ID = 'own-password';

/**
 * The own password (issue 30): after a sign-in with a password an administrator mailed, this
 * screen stands instead of every protected page until the user sets their own (the server refuses
 * their other calls meanwhile). The page they were going to opens once it is saved.
 */
export default function OwnPasswordPage() {
  const { user } = useSession();
  const { logout, isPending: leaving } = useLogout();
  const companyName = usePublicConfig().data?.company_name.trim();
  const save = useSetOwnPassword();
  const password = usePasswordForm<NewPasswordField>(EMPTY_OWN_PASSWORD, TOAST_ID);
  useDocumentTitle(companyName ? `${T.title} · ${companyName}` : T.title);

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (save.isPending) return;
    const { form } = password;
    if (!password.passes(ownPasswordProblem(form, user?.email ?? ''))) return;
    save.mutate(form, {
      onSuccess: (message) => {
        hideToast(TOAST_ID);
        toastSuccess(message ?? T.saved);
      },
      onError: (error) => toastError(messageOr(error, T.failed), TOAST_ID),
    });
  };

  return (
    <GuestCard title={T.title} subtitle={T.subtitle}>
      <GuestForm onSubmit={onSubmit} label={T.title}>
        <div>
          <Text size="sm" c="dimmed">
            {T.account}
          </Text>
          <Text fw={500} style={{ overflowWrap: 'anywhere' }}>
            {user?.email}
          </Text>
          {/* For password managers: the new password belongs to this login. */}
          <input type="email" name="username" autoComplete="username" value={user?.email ?? ''} readOnly hidden />
        </div>
        <SecretInput
          label={T.newPassword}
          description={T.rules}
          autoComplete="new-password"
          autoFocus
          {...password.field('new_password')}
        />
        <SecretInput
          label={T.confirmation}
          autoComplete="new-password"
          {...password.field('new_password_confirmation')}
        />
        <Button type="submit" fullWidth size="md" mt="xs" disabled={save.isPending}>
          {save.isPending ? T.saving : T.submit}
        </Button>
        <Button variant="subtle" color="gray" fullWidth onClick={logout} loading={leaving}>
          {T.logout}
        </Button>
      </GuestForm>
    </GuestCard>
  );
}
