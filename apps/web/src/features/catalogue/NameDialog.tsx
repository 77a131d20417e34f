import { Button, Group, NativeSelect, Stack, TextInput, type ModalProps } from '@mantine/core';
import { useState } from 'react';
import { AppModal } from '../../shared/AppModal';
import { useNameForm, type NameOutcome } from '../../shared/useNameForm';
import { T } from './texts';

/** The name dialog closes in 300 ms (docs/product.md §Catalogue). */
export const NAME_DIALOG_TRANSITION = { transition: 'pop', duration: 300, exitDuration: 300 } as const;

interface CatalogueDialogProps extends Omit<ModalProps, 'transitionProps' | 'centered' | 'radius' | 'padding'> {
  /** While a request runs the dialog stays open. */
  busy: boolean;
}

/** The frame of the catalogue's dialogs: centred, closing in 300 ms, not closable while busy. */
export function CatalogueDialog({ busy, onClose, ...props }: CatalogueDialogProps) {
  return <AppModal onClose={busy ? () => {} : onClose} transitionProps={NAME_DIALOG_TRANSITION} {...props} />;
}

export type NameDialogKind = 'course' | 'category';

/** What became of a submit: close the dialog, or keep it open (with a message under the field). */
export type NameDialogOutcome = NameOutcome;

export interface CategoryOption {
  id: number;
  name: string;
}

interface NameDialogProps {
  opened: boolean;
  kind: NameDialogKind;
  /** Categories a new course can go to (the first is preselected unless `categoryId` says otherwise). */
  categories?: CategoryOption[];
  categoryId?: number | null;
  onClose: () => void;
  onSubmit: (name: string, categoryId: number | null) => Promise<NameDialogOutcome>;
}

/**
 * Names a new course or category (docs/product.md §Catalogue): an empty name gives 'Поле не может быть
 * пустым' and nothing is sent; what the server refuses (422) shows under the field. Mount it with a
 * new key for each opening to start from an empty form.
 */
export function NameDialog({ opened, kind, categories = [], categoryId = null, onClose, onSubmit }: NameDialogProps) {
  const [category, setCategory] = useState(String(categoryId ?? categories[0]?.id ?? ''));
  const isCourse = kind === 'course';
  const {
    field,
    busy,
    onSubmit: submit,
  } = useNameForm(
    '',
    T.emptyName,
    (name) => onSubmit(name, isCourse && category !== '' ? Number(category) : null),
    onClose,
  );

  return (
    <CatalogueDialog
      opened={opened}
      busy={busy}
      onClose={onClose}
      title={isCourse ? T.newCourseTitle : T.newCategoryTitle}
      size={480}
    >
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          <TextInput
            label={isCourse ? T.courseName : T.categoryName}
            {...field}
            maxLength={isCourse ? 150 : 255}
            data-autofocus
            autoComplete="off"
          />
          {isCourse && categories.length > 0 ? (
            <NativeSelect
              label={T.categoryField}
              value={category}
              onChange={(event) => setCategory(event.currentTarget.value)}
              data={categories.map((c) => ({ value: String(c.id), label: c.name }))}
            />
          ) : null}
          <Group justify="flex-end" gap="sm" mt="xs">
            <Button variant="default" onClick={onClose} disabled={busy}>
              {T.cancel}
            </Button>
            <Button type="submit" loading={busy}>
              {T.create}
            </Button>
          </Group>
        </Stack>
      </form>
    </CatalogueDialog>
  );
}
