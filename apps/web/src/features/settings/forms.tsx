/* The frame of the settings modal forms: the modal, the footer, deleting, loading an edit form. */
import type { NamedRef } from '@lms/contract';
import { Button, Divider, Group, Skeleton, Stack } from '@mantine/core';
import { IconTrash } from '@tabler/icons-react';
import { useState, type FormEvent, type ReactNode } from 'react';
import { T } from './texts';
import { ConfirmDialog, SettingsModal } from './ui';

/** What a form modal hands to its form: closing, and the busy flag that keeps the modal open. */
export interface ModalFormProps {
  onClose: () => void;
  busy: boolean;
  setBusy: (busy: boolean) => void;
}

interface FormModalProps {
  opened: boolean;
  title: string;
  onClose: () => void;
  /** The form inside. */
  children: (form: ModalFormProps) => ReactNode;
}

/** A settings modal with one form; it cannot be closed while the form's request runs. */
export function FormModal({ opened, title, onClose, children }: FormModalProps) {
  const [busy, setBusy] = useState(false);
  return (
    <SettingsModal opened={opened} onClose={busy ? () => {} : onClose} title={title}>
      {children({ onClose, busy, setBusy })}
    </SettingsModal>
  );
}

interface ModalActionsProps {
  /** Buttons at the left end (deleting, resetting a password); none for a new item. */
  start?: ReactNode;
  submitLabel: string;
  /** The submit button shows its spinner. */
  submitting: boolean;
  busy: boolean;
  onCancel: () => void;
}

/** The footer of a settings form: a divider, then cancel and submit on the right. */
export function ModalActions({ start, submitLabel, submitting, busy, onCancel }: ModalActionsProps) {
  return (
    <>
      <Divider />
      <Group justify="space-between" gap="sm">
        {start ?? <span />}
        <Group gap="xs" ml="auto">
          <Button variant="default" onClick={onCancel} disabled={busy}>
            {T.cancel}
          </Button>
          <Button type="submit" loading={submitting}>
            {submitLabel}
          </Button>
        </Group>
      </Group>
    </>
  );
}

/** The red 'Удалить' button of an edit form; it asks for confirmation first. */
export function DeleteButton({ onClick, disabled }: { onClick: () => void; disabled: boolean }) {
  return (
    <Button
      variant="light"
      color="red"
      leftSection={<IconTrash size={16} aria-hidden="true" />}
      onClick={onClick}
      disabled={disabled}
    >
      {T.delete}
    </Button>
  );
}

interface Deletion {
  /** The confirmation's title and question. */
  title: string;
  message: ReactNode;
  /** Runs once confirmed; the confirmation closes when it settles. */
  onConfirm: () => Promise<void>;
}

interface EntityFormProps {
  /** The form's accessible name (the modal's title). */
  label: string;
  submitLabel: string;
  busy: boolean;
  /** Runs on submit unless a request is already running. */
  onSubmit: () => Promise<void>;
  onCancel: () => void;
  /** Only for an existing item: the delete button and its confirmation. */
  deletion?: Deletion | undefined;
  /** The fields. */
  children: ReactNode;
}

/** The add/edit form of a department or a study group: fields, the footer and deleting after a confirmation. */
export function EntityForm({ label, submitLabel, busy, onSubmit, onCancel, deletion, children }: EntityFormProps) {
  const [confirming, setConfirming] = useState(false);

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    void onSubmit();
  };

  const confirmDelete = async () => {
    try {
      await deletion?.onConfirm();
    } finally {
      setConfirming(false);
    }
  };

  return (
    <>
      <form onSubmit={submit} noValidate aria-label={label}>
        <Stack gap="md">
          {children}
          <ModalActions
            start={deletion ? <DeleteButton onClick={() => setConfirming(true)} disabled={busy} /> : undefined}
            submitLabel={submitLabel}
            submitting={busy && !confirming}
            busy={busy}
            onCancel={onCancel}
          />
        </Stack>
      </form>
      {deletion ? (
        <ConfirmDialog
          opened={confirming}
          title={deletion.title}
          message={deletion.message}
          confirmLabel={T.delete}
          danger
          busy={busy}
          onConfirm={() => void confirmDelete()}
          onClose={() => setConfirming(false)}
        />
      ) : null}
    </>
  );
}

interface CoursesQuery {
  data?: NamedRef[] | undefined;
  isFetching: boolean;
  isPending: boolean;
}

/**
 * The courses an edit form starts from: those of a fresh answer (the query asks again on mount),
 * else, when it fails, the list's `fallback` ids; null until the answer has come.
 */
export function useAssignedCourses(query: CoursesQuery, fallback: number[]) {
  const [ready, setReady] = useState(false);
  if (!ready && !query.isFetching && !query.isPending) setReady(true);
  if (!ready) return null;
  return { courseIds: query.data ? query.data.map((c) => c.id) : fallback, known: query.data };
}

/** Placeholder blocks of the given heights while an edit form loads. */
export function FormSkeleton({ heights }: { heights: number[] }) {
  return (
    <Stack gap="md" aria-busy="true">
      {heights.map((h, n) => (
        <Skeleton key={n} h={h} radius="md" />
      ))}
    </Stack>
  );
}
