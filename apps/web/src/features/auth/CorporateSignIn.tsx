import { OIDC_ERROR_PARAM, oidcErrorMessage, oidcStartHref } from '@lms/contract';
import { Alert, Button, Divider } from '@mantine/core';
import { IconAlertTriangle, IconBuildingSkyscraper } from '@tabler/icons-react';
import { useLocation } from 'react-router';

/** Where the guard sent the user from (app/guards.tsx puts it in the navigation's state). */
export function useReturnPath(): string | undefined {
  const state: unknown = useLocation().state;
  if (typeof state !== 'object' || state === null || !('from' in state)) return undefined;
  return typeof state.from === 'string' ? state.from : undefined;
}

/**
 * Why the corporate sign-in came back without a session: the server sends only a code
 * (`?sso_error=`), and its Russian text comes from the contract, so a crafted link cannot make this
 * page say anything else.
 */
export function CorporateSignInError() {
  const code = new URLSearchParams(useLocation().search).get(OIDC_ERROR_PARAM);
  if (code === null) return null;
  return (
    <Alert color="red" variant="light" role="alert" icon={<IconAlertTriangle size={20} aria-hidden="true" />} mb="md">
      {oidcErrorMessage(code)}
    </Alert>
  );
}

/**
 * The button of the sign-in through the company's provider (OIDC_BUTTON_LABEL), under the password
 * form: a full-page navigation to the server's start route, which sends the browser to the provider
 * and, after it, back to where the user was going. 'Запомнить меня' applies to it too.
 */
export function CorporateSignInButton({ label, remember }: { label: string; remember: boolean }) {
  const from = useReturnPath();
  return (
    <>
      <Divider label="или" labelPosition="center" my="md" />
      <Button
        component="a"
        href={oidcStartHref(from, remember)}
        variant="default"
        fullWidth
        size="md"
        fz="sm"
        fw={600}
        // A company's own label may be long ('Войти через Яндекс 360 …'): it wraps instead of being cut.
        h="auto"
        mih={42}
        py={8}
        styles={{ label: { whiteSpace: 'normal', lineHeight: 1.3, textAlign: 'center' } }}
        leftSection={<IconBuildingSkyscraper size={20} aria-hidden="true" />}
      >
        {label}
      </Button>
    </>
  );
}
