import { Alert, Button, Group, Modal, Stack, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { NAME_DIALOG_TRANSITION } from './NameDialog';
import { T } from './texts';

interface ConfirmDeleteDialogProps {
  opened: boolean;
  /** The category's name (kept while the dialog closes). */
  name: string;
  busy: boolean;
  onConfirm: () => void;
  onClose: () => void;
}

/** Confirms deleting a category; its courses are deleted too (spec 03 §8). */
export function ConfirmDeleteDialog({ opened, name, busy, onConfirm, onClose }: ConfirmDeleteDialogProps) {
  return (
    <Modal
      opened={opened}
      onClose={busy ? () => {} : onClose}
      title={T.deleteTitle}
      transitionProps={NAME_DIALOG_TRANSITION}
      centered
      radius="lg"
      padding="lg"
      size={460}
      overlayProps={{ backgroundOpacity: 0.45, blur: 2 }}
      styles={{ title: { fontWeight: 700, fontSize: 'var(--mantine-font-size-lg)' } }}
    >
      <Stack gap="md">
        <Text fw={500}>{T.deleteQuestion(name)}</Text>
        <Alert color="red" variant="light" icon={<IconAlertTriangle size={18} aria-hidden="true" />}>
          {T.deleteWarning}
        </Alert>
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose} disabled={busy}>
            {T.cancel}
          </Button>
          <Button color="red" onClick={onConfirm} loading={busy}>
            {T.deleteConfirm}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
