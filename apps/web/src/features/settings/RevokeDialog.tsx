import type { CertificateItem } from '@lms/contract';
import { Button, Group, Modal, Stack, Text, Textarea } from '@mantine/core';
import { useEffect, useState, type FormEvent } from 'react';
import { messageOr } from '../../lib/errors';
import { toastError, toastSuccess } from '../../shared/toast';
import { CERTIFICATES_TEXTS as C, useRevokeCertificate } from './certificates';
import { T } from './texts';
import { MODAL_TRANSITION } from './ui';

/** 'Отозвать сертификат': the reason is required, and shown to whoever checks the number afterwards. */
export function RevokeDialog({ certificate, onClose }: { certificate: CertificateItem | null; onClose: () => void }) {
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const revoke = useRevokeCertificate();
  // each certificate starts with an empty reason
  useEffect(() => {
    setReason('');
    setError(null);
  }, [certificate?.number]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!certificate || revoke.isPending) return;
    if (!reason.trim()) {
      setError(C.reasonRequired);
      return;
    }
    revoke.mutate(
      { number: certificate.number, reason },
      {
        onSuccess: ({ message }) => {
          toastSuccess(message);
          onClose();
        },
        onError: (e) => toastError(messageOr(e, C.revokeError), 'settings-certificate-revoke'),
      },
    );
  };

  return (
    <Modal
      opened={certificate !== null}
      onClose={revoke.isPending ? () => {} : onClose}
      title={C.revokeTitle}
      size={480}
      transitionProps={MODAL_TRANSITION}
      centered
      radius="lg"
      padding="lg"
      styles={{ title: { fontWeight: 700 } }}
    >
      {certificate ? (
        <form onSubmit={submit} noValidate>
          <Stack gap="md">
            <Text size="sm">{C.revokeMessage(certificate.number, certificate.learner_name)}</Text>
            <Textarea
              label={C.reason}
              placeholder={C.reasonPlaceholder}
              required
              rows={3}
              maxLength={500}
              value={reason}
              error={error}
              data-autofocus
              onChange={(e) => {
                setReason(e.currentTarget.value);
                setError(null);
              }}
            />
            <Group justify="flex-end" gap="sm">
              <Button variant="default" onClick={onClose} disabled={revoke.isPending}>
                {T.cancel}
              </Button>
              <Button type="submit" color="red" loading={revoke.isPending}>
                {C.revoke}
              </Button>
            </Group>
          </Stack>
        </form>
      ) : null}
    </Modal>
  );
}
