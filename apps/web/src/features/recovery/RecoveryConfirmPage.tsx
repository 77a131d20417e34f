import { Alert, Button, Paper, Stack, Text, Title } from '@mantine/core';
import { IconAlertCircle, IconCircleCheck } from '@tabler/icons-react';
import DOMPurify from 'dompurify';
import { useState, type FormEvent } from 'react';
import { Navigate, useLocation, useNavigate } from 'react-router';
import { useGuestConfig } from '../../shared/config';
import { GuestForm } from '../../shared/GuestCard';
import { LogoMark } from '../../shared/Logo';
import { CodeInput, EMPTY_CODE } from './CodeInput';
import { useConfirmCode } from './queries';
import { CODE_LENGTH, confirmEmail, type CodeOutcome } from './recovery';

export const TEXT_CHECK = 'Проверить код';
export const TEXT_CHECKING = 'Проверка...';
export const TEXT_SIGN_IN = 'Авторизоваться';
export const TEXT_BACK_TO_SIGN_IN = 'Вернуться ко входу';

/** The error text of the code step is rendered as HTML (docs/product.md §Recovery), always sanitized first. */
export function sanitizeMessage(html: string): string {
  return DOMPurify.sanitize(html, { USE_PROFILES: { html: true } });
}

/**
 * Recovery confirmation (/recovery/confirm), docs/product.md §Recovery. The address comes through
 * navigation state; without it the visitor goes back to /recovery.
 */
export default function RecoveryConfirmPage() {
  const location = useLocation();
  const email = confirmEmail(location.state);
  if (email === null) return <Navigate to="/recovery" replace />;
  return <ConfirmCode email={email} />;
}

function ConfirmCode({ email }: { email: string }) {
  const navigate = useNavigate();
  const [digits, setDigits] = useState<readonly string[]>(EMPTY_CODE);
  const confirm = useConfirmCode();
  const busy = confirm.isPending;
  const [outcome, setOutcome] = useState<CodeOutcome | null>(null);

  useGuestConfig('Восстановление пароля');

  const code = digits.join('');
  const complete = code.length === CODE_LENGTH && digits.every((d) => /^\d$/.test(d));
  const toSignIn = () => void navigate('/login');

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy || !complete) return;
    setOutcome(null);
    confirm.mutate({ email, pin_code: code }, { onSuccess: setOutcome });
  };

  if (outcome?.success) {
    return (
      <Paper withBorder shadow="sm" radius="lg" p={{ base: 'lg', xs: 40 }} w="100%" maw={440}>
        <Stack gap="lg" align="center">
          <LogoMark size={56} />
          <Title order={1} fz={24} ta="center">
            Пароль восстановлен
          </Title>
          <Alert
            color="green"
            variant="light"
            icon={<IconCircleCheck aria-hidden="true" />}
            w="100%"
            role="status"
            data-testid="recovery-success"
          >
            {outcome.message}
          </Alert>
          <Button fullWidth size="md" onClick={toSignIn} autoFocus>
            {TEXT_BACK_TO_SIGN_IN}
          </Button>
        </Stack>
      </Paper>
    );
  }

  return (
    <Paper withBorder shadow="sm" radius="lg" p={{ base: 'lg', xs: 40 }} w="100%" maw={440}>
      <Stack gap="xs" align="center" mb="lg">
        <LogoMark size={56} />
        <Title order={1} fz={24} ta="center" mt="xs">
          Введите код
        </Title>
        <Text c="dimmed" size="sm" ta="center" style={{ overflowWrap: 'anywhere' }} data-testid="code-sent-to">
          На почту {email} отправлен код
        </Text>
      </Stack>

      <GuestForm onSubmit={onSubmit} label="Проверка кода">
        <CodeInput
          value={digits}
          onChange={(next) => {
            setDigits(next);
            if (outcome) setOutcome(null);
          }}
          disabled={busy}
          error={outcome !== null}
          autoFocus
        />
        {outcome && !outcome.success ? (
          <Alert
            color="red"
            variant="light"
            icon={<IconAlertCircle aria-hidden="true" />}
            role="alert"
            data-testid="recovery-error"
          >
            <div dangerouslySetInnerHTML={{ __html: sanitizeMessage(outcome.message) }} />
          </Alert>
        ) : null}
        <Button type="submit" fullWidth size="md" mt="xs" disabled={busy || !complete}>
          {busy ? TEXT_CHECKING : TEXT_CHECK}
        </Button>
        <Button variant="default" fullWidth size="md" onClick={toSignIn} disabled={busy}>
          {TEXT_SIGN_IN}
        </Button>
      </GuestForm>
    </Paper>
  );
}
