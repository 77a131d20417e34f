import { Anchor, Button, Checkbox, Group, PasswordInput } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { Link } from '../../shared/Link';
import { useGuestConfig } from '../../shared/config';
import { GuestCard, GuestForm } from '../../shared/GuestCard';
import { GUEST_MAILBOX, MailboxInput } from '../../shared/MailboxInput';
import { hideToast, toastError, toastSuccess } from '../../shared/toast';
import { CorporateSignInButton, CorporateSignInError } from './CorporateSignIn';
import { buildLogin, credentialProblems, TEXT_FILL_IN, TEXT_SIGNED_IN, type CredentialProblems } from './login';
import { loginErrorText } from './loginErrors';
import { useLogin } from './queries';

const NO_PROBLEMS: CredentialProblems = { mailbox: false, password: false };
const VALIDATION_TOAST_ID = 'login-validation';

/** Sign-in screen (/login), docs/product.md §Sign-in. */
export default function LoginPage() {
  const navigate = useNavigate();
  const login = useLogin();
  const [mailbox, setMailbox] = useState('');
  const [password, setPassword] = useState('');
  const [remember, setRemember] = useState(true);
  const [passwordVisible, setPasswordVisible] = useState(false);
  const [problems, setProblems] = useState<CredentialProblems>(NO_PROBLEMS);

  const { loading, companyName, suffix, oidcLabel } = useGuestConfig('Вход');

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (login.isPending) return;
    const found = credentialProblems(mailbox, password, suffix);
    if (found) {
      setProblems(found);
      toastError(TEXT_FILL_IN, VALIDATION_TOAST_ID);
      return;
    }
    setProblems(NO_PROBLEMS);
    hideToast(VALIDATION_TOAST_ID);
    login.mutate(
      { login: buildLogin(mailbox, suffix), password, remember },
      {
        onSuccess: () => {
          toastSuccess(TEXT_SIGNED_IN);
          void navigate('/', { replace: true });
        },
        onError: (error) => toastError(loginErrorText(error)),
      },
    );
  };

  return (
    <GuestCard title={companyName} subtitle="Войдите с помощью рабочей почты" loading={loading}>
      <CorporateSignInError />
      <GuestForm onSubmit={onSubmit} label="Вход в систему">
        <MailboxInput
          {...GUEST_MAILBOX}
          name="login"
          value={mailbox}
          onChange={(value) => {
            setMailbox(value);
            if (problems.mailbox) setProblems((p) => ({ ...p, mailbox: false }));
          }}
          error={problems.mailbox}
          suffix={suffix}
        />
        <PasswordInput
          label="Пароль"
          name="password"
          autoComplete="current-password"
          value={password}
          onChange={(event) => {
            setPassword(event.currentTarget.value);
            if (problems.password) setProblems((p) => ({ ...p, password: false }));
          }}
          error={problems.password}
          visible={passwordVisible}
          onVisibilityChange={setPasswordVisible}
          visibilityToggleButtonProps={{
            'aria-label': passwordVisible ? 'Скрыть пароль' : 'Показать пароль',
          }}
        />
        <Group justify="space-between" gap="sm">
          <Checkbox
            label="Запомнить меня"
            checked={remember}
            onChange={(event) => setRemember(event.currentTarget.checked)}
          />
          <Anchor component={Link} to="/recovery" size="sm">
            Забыли пароль?
          </Anchor>
        </Group>
        <Button type="submit" fullWidth size="md" mt="xs" loading={login.isPending}>
          Авторизоваться
        </Button>
      </GuestForm>
      {oidcLabel && <CorporateSignInButton label={oidcLabel} remember={remember} />}
    </GuestCard>
  );
}
