import { Stack } from '@mantine/core';
import { errorStatus } from '../../lib/errors';
import { SettingsFrame } from './SettingsFrame';
import { useSignInFilters } from './signInFilters';
import { SignInJournal } from './SignInJournal';
import { SignInMethodsCard } from './SignInMethodsCard';
import { useSignIns, useSignInSettings } from './signIns';
import { T } from './texts';
import { AccessDenied, useErrorToast } from './ui';

/**
 * /settings/sign-in (issue 33): the ways in the server is set up for, the admin's 'Только вход
 * через SSO', and the journal of every sign-in.
 */
export default function SignInPage() {
  return (
    <SettingsFrame>
      <SignInTab />
    </SettingsFrame>
  );
}

function SignInTab() {
  const address = useSignInFilters();
  const journal = useSignIns(address.filters, address.page);
  const settings = useSignInSettings();
  // a session that lost its admin role since it was read: either call says so
  const forbidden = errorStatus(journal.error) === 403 || errorStatus(settings.error) === 403;
  // one toast for either failing (the same id): each part shows its own error with a retry in place
  useErrorToast(journal, T.loadError, 'settings-load-error', !forbidden);
  useErrorToast(settings, T.loadError, 'settings-load-error', !forbidden);

  if (forbidden) return <AccessDenied />;

  return (
    <Stack gap="xl">
      <SignInMethodsCard query={settings} />
      <SignInJournal journal={journal} address={address} />
    </Stack>
  );
}
