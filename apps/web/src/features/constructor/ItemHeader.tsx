import { Button, Group, Paper, Stack, Switch, Text } from '@mantine/core';
import { IconTrash } from '@tabler/icons-react';
import { useState, type ComponentProps, type ReactNode } from 'react';
import { messageOr } from '../../lib/errors';
import { toastError, toastSuccess } from '../../shared/toast';
import classes from './Constructor.module.css';
import { EditableName } from './EditableName';
import { T } from './texts';

interface PublishSwitchProps {
  published: boolean;
  /** The switch's name for screen readers ('Статус курса', 'Статус урока', ...). */
  label: string;
  /** The course header's larger switch. */
  large?: boolean;
  onChange: (published: boolean) => void;
}

/** The published switch of a course, lesson or test: 'Опубликован' in green, 'Не опубликован' in red. */
export function PublishSwitch({ published, label, large = false, onChange }: PublishSwitchProps) {
  return (
    <Switch
      checked={published}
      onChange={(event) => onChange(event.currentTarget.checked)}
      color="green"
      size={large ? 'md' : undefined}
      aria-label={label}
      label={
        <Text
          component="span"
          fw={600}
          size={large ? undefined : 'sm'}
          className={published ? classes.published : classes.unpublished}
        >
          {published ? T.published : T.unpublished}
        </Text>
      }
    />
  );
}

/** The red 'Удалить …' button of a course, lesson or test header (it opens a confirmation). */
export function DeleteButton({
  small = false,
  onClick,
  children,
}: {
  small?: boolean;
  onClick: () => void;
  children: string;
}) {
  return (
    <Button
      variant="subtle"
      color="red"
      size={small ? 'xs' : undefined}
      leftSection={<IconTrash size={small ? 14 : 16} aria-hidden="true" />}
      onClick={onClick}
    >
      {children}
    </Button>
  );
}

interface SaveCallbacks {
  onSuccess: (answer: { message: string }) => void;
  onError: (error: unknown) => void;
}

/**
 * The published flag of the open lesson or test: it follows the stored one (publish-all or another
 * tab may change it), flips at once when the switch is used, and flips back when the save fails.
 * `send` starts the save with the callbacks given; `savedText` stands in for an answer without a message.
 */
function usePublishedFlag(
  stored: boolean,
  send: (next: boolean, callbacks: SaveCallbacks) => void,
  savedText = '',
): [boolean, (next: boolean) => void] {
  const [published, setPublished] = useState(stored);
  const [seen, setSeen] = useState(stored);
  if (stored !== seen) {
    setSeen(stored);
    setPublished(stored);
  }
  const change = (next: boolean) => {
    setPublished(next);
    send(next, {
      onSuccess: ({ message }) => toastSuccess(message || savedText),
      onError: (error) => {
        setPublished(!next);
        toastError(messageOr(error, T.publishStatusError));
      },
    });
  };
  return [published, change];
}

/** A rename, or a flag change that sends the name as typed with it (the update takes both). */
type ItemChange = { name: string } | { name: string; is_published: boolean };

interface NameTexts {
  label: string;
  placeholder: string;
  renamed: string;
  renameError: string;
  /** Stands for an answer to a flag change that brings no message. */
  flagSaved?: string;
}

/** The name line and the publish switch of the open lesson or test (useItemHeading). */
export interface ItemHeading {
  name: ComponentProps<typeof EditableName>;
  /** The name as typed, saved or not. */
  typedName: string;
  /** A name typed and not saved yet (a leave asks first). */
  namePending: boolean;
  published: boolean;
  changePublished: (next: boolean) => void;
}

/**
 * One owner for what a lesson page and a test page do with their header: the name typed is kept
 * (a flag change sends it along), saved after the pause with its toasts, and the published flag
 * follows usePublishedFlag. `update` starts the item's save with the callbacks given.
 */
export function useItemHeading(
  stored: { name: string; is_published: boolean },
  texts: NameTexts,
  update: (change: ItemChange, callbacks: SaveCallbacks) => void,
): ItemHeading {
  const [typedName, setTypedName] = useState(stored.name);
  const [namePending, setNamePending] = useState(false);
  const [published, changePublished] = usePublishedFlag(
    stored.is_published,
    (next, callbacks) => update({ name: typedName, is_published: next }, callbacks),
    texts.flagSaved,
  );
  const rename = (name: string) =>
    update(
      { name },
      {
        onSuccess: ({ message }) => toastSuccess(message || texts.renamed),
        onError: (error) => toastError(messageOr(error, texts.renameError)),
      },
    );
  return {
    name: {
      initialValue: stored.name,
      placeholder: texts.placeholder,
      label: texts.label,
      onChange: setTypedName,
      onSave: rename,
      onPendingChange: setNamePending,
    },
    typedName,
    namePending,
    published,
    changePublished,
  };
}

interface ItemHeaderProps {
  /** The section's name: 'Урок' or 'Тест'. */
  kind: string;
  heading: ItemHeading;
  statusLabel: string;
  /** The buttons right of the switch. */
  actions: ReactNode;
  /** Above the name line (the test's badge). */
  top?: ReactNode;
  /** Under the switch (the lesson's saved state). */
  children?: ReactNode;
}

/** The header of a lesson or test page: its name line, the publish switch and the page's buttons. */
export function ItemHeader({ kind, heading, statusLabel, actions, top, children }: ItemHeaderProps) {
  return (
    <Paper withBorder p={{ base: 'md', sm: 'lg' }} component="section" aria-label={kind}>
      <Stack gap="sm">
        {top}
        <EditableName {...heading.name} />
        <Group justify="space-between" gap="sm">
          <PublishSwitch published={heading.published} label={statusLabel} onChange={heading.changePublished} />
          <Group gap="xs">{actions}</Group>
        </Group>
        {children}
      </Stack>
    </Paper>
  );
}
