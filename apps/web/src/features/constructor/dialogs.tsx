import { Alert, Button, Group, Modal, Radio, Stack, Text, TextInput } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useState, type ReactNode } from 'react';
import { useNameForm, type NameOutcome } from '../../shared/useNameForm';
import { T } from './texts';

/** Dialogs close in 300 ms, as the name dialog of docs/product.md §Constructor. */
export const DIALOG_TRANSITION = { transition: 'pop', duration: 300, exitDuration: 300 } as const;

export const modalLook = {
  centered: true,
  radius: 'lg',
  padding: 'lg',
  overlayProps: { backgroundOpacity: 0.45, blur: 2 },
  styles: { title: { fontWeight: 700, fontSize: 'var(--mantine-font-size-lg)' } },
  transitionProps: DIALOG_TRANSITION,
  closeButtonProps: { 'aria-label': T.close },
} as const;

interface ConfirmDialogProps {
  opened: boolean;
  title: string;
  question: ReactNode;
  busy: boolean;
  confirmLabel?: string;
  cancelLabel?: string;
  /** The red note under the question. */
  warning?: string;
  /** Focus the cancel button first (Enter then keeps things as they are). */
  cancelFirst?: boolean;
  onConfirm: () => void;
  onClose: () => void;
}

/**
 * A confirmation of a step that loses something: the delete confirmations of docs/product.md §Constructor (lesson,
 * module, block and course) and leaving a page with unsaved changes.
 */
export function ConfirmDialog({
  opened,
  title,
  question,
  busy,
  confirmLabel = T.delete,
  cancelLabel = T.cancel,
  warning = T.cannotUndo,
  cancelFirst = false,
  onConfirm,
  onClose,
}: ConfirmDialogProps) {
  return (
    <Modal opened={opened} onClose={busy ? () => {} : onClose} title={title} size={460} {...modalLook}>
      <Stack gap="md">
        <Text fw={500}>{question}</Text>
        <Alert color="red" variant="light" icon={<IconAlertTriangle size={18} aria-hidden="true" />}>
          {warning}
        </Alert>
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose} disabled={busy} data-autofocus={cancelFirst || undefined}>
            {cancelLabel}
          </Button>
          {/* Shade 9: white on it reads at 5.4:1 (the default red is 3.8:1). */}
          <Button color="red.9" onClick={onConfirm} loading={busy} data-autofocus={!cancelFirst || undefined}>
            {confirmLabel}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

export type { NameOutcome } from '../../shared/useNameForm';

interface NameDialogProps {
  opened: boolean;
  title: string;
  label: string;
  submitLabel: string;
  initialName?: string;
  onClose: () => void;
  onSubmit: (name: string) => Promise<NameOutcome>;
}

/**
 * Names a new module ('Создание нового модуля') or lesson ('Создание нового урока'): an empty name
 * gives 'Поле не может быть пустым' and nothing is sent. Mount with a new key for each opening.
 */
export function NameDialog({
  opened,
  title,
  label,
  submitLabel,
  initialName = '',
  onClose,
  onSubmit,
}: NameDialogProps) {
  const { field, busy, onSubmit: submit } = useNameForm(initialName, T.emptyName, onSubmit, onClose);

  return (
    <Modal opened={opened} onClose={busy ? () => {} : onClose} title={title} size={480} {...modalLook}>
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          <TextInput
            label={label}
            {...field}
            onFocus={(event) => event.currentTarget.select()}
            maxLength={255}
            data-autofocus
            autoComplete="off"
          />
          <Group justify="flex-end" gap="sm" mt="xs">
            <Button variant="default" onClick={onClose} disabled={busy}>
              {T.cancel}
            </Button>
            <Button type="submit" loading={busy}>
              {submitLabel}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

/** What the type dialog adds: a lesson of blocks, a test, or a lesson holding a SCORM package. */
export type LessonKind = 'lesson' | 'test' | 'scorm';

const LESSON_TYPES: readonly { value: LessonKind; label: string; hint: string }[] = [
  { value: 'lesson', label: T.typeRegular, hint: T.typeRegularHint },
  { value: 'test', label: T.typeTest, hint: T.typeTestHint },
  { value: 'scorm', label: T.typeScorm, hint: T.typeScormHint },
];

const isLessonKind = (value: string): value is LessonKind => LESSON_TYPES.some((type) => type.value === value);

interface LessonTypeDialogProps {
  opened: boolean;
  onClose: () => void;
  onNext: (kind: LessonKind) => void;
}

/**
 * Chooses what to add to a module: 'Обычное' (a lesson), 'Тест' or 'SCORM-пакет', then 'Далее'
 * (docs/product.md §Constructor). A test goes on to the test settings dialog, the others to their name.
 */
export function LessonTypeDialog({ opened, onClose, onNext }: LessonTypeDialogProps) {
  const [kind, setKind] = useState<LessonKind>('lesson');
  return (
    <Modal opened={opened} onClose={onClose} title={T.lessonTypeTitle} size={480} {...modalLook}>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          onNext(kind);
        }}
      >
        <Stack gap="md">
          <Radio.Group value={kind} onChange={(value) => setKind(isLessonKind(value) ? value : 'lesson')}>
            <Stack gap="sm">
              {LESSON_TYPES.map((type) => (
                <Radio.Card
                  key={type.value}
                  value={type.value}
                  p="md"
                  radius="md"
                  data-autofocus={type.value === 'lesson' || undefined}
                >
                  <Group wrap="nowrap" align="flex-start">
                    <Radio.Indicator />
                    <div>
                      <Text fw={600}>{type.label}</Text>
                      <Text size="sm" c="dimmed">
                        {type.hint}
                      </Text>
                    </div>
                  </Group>
                </Radio.Card>
              ))}
            </Stack>
          </Radio.Group>
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={onClose}>
              {T.cancel}
            </Button>
            <Button type="submit">{T.next}</Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
