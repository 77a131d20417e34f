import { Button } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { TEXT_NETWORK_ERROR } from '../../lib/errors';
import { useGuestConfig } from '../../shared/config';
import { GuestCard, GuestForm } from '../../shared/GuestCard';
import { GUEST_MAILBOX, MailboxInput } from '../../shared/MailboxInput';
import { toastError } from '../../shared/toast';
import { useRequestRecovery } from './queries';
import { recoveryEmail, type ConfirmState } from './recovery';

export const TEXT_SEND = 'Отправить письмо';
export const TEXT_SENDING = 'Отправка...';
export const TEXT_BACK = 'Вернуться назад';
export const TEXT_ENTER_MAILBOX = 'Введите почту';

/**
 * Recovery request (/recovery), docs/product.md §Recovery: the code is requested for the typed
 * address, and the flow always moves on to the code step — except when the call got no answer
 * at all (network failure), which shows 'Ошибка сети. Попробуйте позже.'.
 */
export default function RecoveryRequestPage() {
  const navigate = useNavigate();
  const [mailbox, setMailbox] = useState('');
  const [empty, setEmpty] = useState(false);
  const request = useRequestRecovery();
  // Busy from the call until the next screen is there.
  const busy = request.isPending || request.isSuccess;

  const { loading, suffix } = useGuestConfig('Восстановление пароля');

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    if (mailbox.trim() === '') {
      setEmpty(true);
      return;
    }
    const email = recoveryEmail(mailbox, suffix);
    request.mutate(email, {
      onSuccess: () => {
        const state: ConfirmState = { email };
        void navigate('/recovery/confirm', { state });
      },
      onError: () => toastError(TEXT_NETWORK_ERROR),
    });
  };

  return (
    <GuestCard
      title="Восстановление пароля"
      subtitle="Укажите рабочую почту — мы отправим на неё код для сброса пароля"
      loading={loading}
    >
      <GuestForm onSubmit={onSubmit} label="Восстановление пароля">
        <MailboxInput
          {...GUEST_MAILBOX}
          name="email"
          value={mailbox}
          disabled={busy}
          onChange={(value) => {
            setMailbox(value);
            if (empty) setEmpty(false);
          }}
          error={empty ? TEXT_ENTER_MAILBOX : undefined}
          suffix={suffix}
          allowFullAddress
        />
        <Button type="submit" fullWidth size="md" mt="xs" disabled={busy}>
          {busy ? TEXT_SENDING : TEXT_SEND}
        </Button>
        <Button variant="default" fullWidth size="md" onClick={() => void navigate('/login')} disabled={busy}>
          {TEXT_BACK}
        </Button>
      </GuestForm>
    </GuestCard>
  );
}
