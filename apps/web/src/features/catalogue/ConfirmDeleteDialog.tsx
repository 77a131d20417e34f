import { Alert, Button, Group, Stack, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { CatalogueDialog } from './NameDialog';
import { T } from './texts';

interface ConfirmDeleteDialogProps {
  opened: boolean;
  /** The category's name (kept while the dialog closes). */
  name: string;
  busy: boolean;
  onConfirm: () => void;
  onClose: () => void;
}

/** Confirms deleting a category; its courses are deleted too (docs/product.md §Catalogue). */
export function ConfirmDeleteDialog({ opened, name, busy, onConfirm, onClose }: ConfirmDeleteDialogProps) {
  return (
    <CatalogueDialog opened={opened} busy={busy} onClose={onClose} title={T.deleteTitle} size={460}>
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
    </CatalogueDialog>
  );
}
