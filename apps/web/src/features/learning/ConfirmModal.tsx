import { Button, Group, Text, type ModalProps } from '@mantine/core';
import type { ReactNode } from 'react';
import { AppModal } from '../../shared/AppModal';

interface ConfirmModalProps extends Pick<ModalProps, 'lockScroll' | 'transitionProps' | 'closeButtonProps'> {
  opened: boolean;
  title: string;
  text: ReactNode;
  cancelLabel: string;
  confirmLabel: string;
  /** The confirm button spins while its request runs. */
  busy: boolean;
  /** The button that has the focus when the dialog opens. */
  focus: 'cancel' | 'confirm';
  onCancel: () => void;
  onConfirm: () => void;
}

/** A question before a learner's step ('Начало урока', finishing a test with questions unanswered), 500 px wide. */
export function ConfirmModal({
  opened,
  title,
  text,
  cancelLabel,
  confirmLabel,
  busy,
  focus,
  onCancel,
  onConfirm,
  ...modal
}: ConfirmModalProps) {
  return (
    <AppModal opened={opened} onClose={onCancel} title={title} size={500} {...modal}>
      <Text>{text}</Text>
      <Group justify="flex-end" mt="lg" gap="sm">
        <Button variant="default" onClick={onCancel} data-autofocus={focus === 'cancel' || undefined}>
          {cancelLabel}
        </Button>
        <Button onClick={onConfirm} loading={busy} data-autofocus={focus === 'confirm' || undefined}>
          {confirmLabel}
        </Button>
      </Group>
    </AppModal>
  );
}
