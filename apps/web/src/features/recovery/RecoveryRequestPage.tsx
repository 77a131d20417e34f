import { Button, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { isNetworkError } from '../../lib/errors';
import { loginSuffix, usePublicConfig } from '../../shared/config';
import { ContentLoader } from '../../shared/FullPageLoader';
import { LogoMark } from '../../shared/Logo';
import { toastError } from '../../shared/toast';
import { TEXT_NETWORK_ERROR } from '../auth/login';
import { recoveryEmail, requestRecovery, type ConfirmState } from './recovery';

export const TEXT_SEND = 'Отправить письмо';
export const TEXT_SENDING = 'Отправка...';
export const TEXT_BACK = 'Вернуться назад';
export const TEXT_ENTER_MAILBOX = 'Введите почту';

/**
 * Recovery request (/recovery), spec 01 §2.5, §4, §5, §8: the code is requested for the typed
 * address, and the flow always moves on to the code step — except when the call got no answer
 * at all (network failure), which shows 'Ошибка сети. Попробуйте позже.'.
 */
export default function RecoveryRequestPage() {
  const navigate = useNavigate();
  const config = usePublicConfig();
  const [mailbox, setMailbox] = useState('');
  const [empty, setEmpty] = useState(false);
  const [busy, setBusy] = useState(false);

  const suffix = loginSuffix(config.data);
  const companyName = config.data?.company_name.trim() || 'Корпоративное обучение';
  useDocumentTitle(`Восстановление пароля · ${companyName}`);

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    if (mailbox.trim() === '') {
      setEmpty(true);
      return;
    }
    const email = recoveryEmail(mailbox, suffix);
    setBusy(true);
    try {
      await requestRecovery(email);
    } catch (error) {
      if (isNetworkError(error)) {
        setBusy(false);
        toastError(TEXT_NETWORK_ERROR);
        return;
      }
      // any answer from the server (422, 429, ...) is ignored: the flow goes on
    }
    const state: ConfirmState = { email };
    void navigate('/recovery/confirm', { state });
  };

  return (
    <Paper withBorder shadow="sm" radius="lg" p={{ base: 'lg', xs: 40 }} w="100%" maw={440}>
      <Stack gap="xs" align="center" mb="xl">
        <LogoMark size={56} />
        <Title order={1} fz={24} ta="center" mt="xs">
          Восстановление пароля
        </Title>
        <Text c="dimmed" size="sm" ta="center">
          Укажите рабочую почту — мы отправим на неё код для сброса пароля
        </Text>
      </Stack>

      {config.isPending ? (
        <ContentLoader />
      ) : (
        <form onSubmit={(event) => void onSubmit(event)} noValidate aria-label="Восстановление пароля">
          <Stack gap="md">
            <TextInput
              label="Почта"
              placeholder="ivanov"
              name="email"
              autoComplete="username"
              autoCapitalize="none"
              spellCheck={false}
              autoFocus
              value={mailbox}
              disabled={busy}
              onChange={(event) => {
                setMailbox(event.currentTarget.value);
                if (empty) setEmpty(false);
              }}
              error={empty ? TEXT_ENTER_MAILBOX : undefined}
              rightSection={
                suffix && !mailbox.includes('@') ? (
                  <Text size="sm" c="dimmed" data-testid="login-suffix" style={{ whiteSpace: 'nowrap' }}>
                    {suffix}
                  </Text>
                ) : undefined
              }
              rightSectionWidth={suffix && !mailbox.includes('@') ? `calc(${suffix.length}ch + 16px)` : undefined}
              rightSectionPointerEvents="none"
              styles={suffix ? { section: { justifyContent: 'flex-end', paddingRight: 12 } } : undefined}
            />
            <Button type="submit" fullWidth size="md" mt="xs" disabled={busy}>
              {busy ? TEXT_SENDING : TEXT_SEND}
            </Button>
            <Button variant="default" fullWidth size="md" onClick={() => void navigate('/login')} disabled={busy}>
              {TEXT_BACK}
            </Button>
          </Stack>
        </form>
      )}
    </Paper>
  );
}
