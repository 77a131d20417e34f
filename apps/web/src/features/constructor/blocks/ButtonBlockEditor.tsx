import { BUTTON_LABEL_MAX, type ButtonItem } from '@lms/contract';
import { ActionIcon, Button, Group, Paper, Stack, Text, TextInput } from '@mantine/core';
import { IconExternalLink, IconPlus, IconTrash } from '@tabler/icons-react';
import { canAddButton, canDeleteButton, type ButtonBlock } from '../logic';
import { T } from '../texts';

/** The first button is green (docs/product.md §Lesson page), dark enough for white text (4.5:1). */
const FIRST_BUTTON = '#2b7a3b';

interface ButtonBlockEditorProps {
  block: ButtonBlock;
  editing: boolean;
  onChange: (buttons: ButtonItem[]) => void;
}

/**
 * The Кнопка block (docs/product.md §Lesson editor): labels of at most 40 characters ('Кнопка' by default), a link each;
 * the first button cannot be deleted, and a second one can be added only while exactly one exists.
 */
export function ButtonBlockEditor({ block, editing, onChange }: ButtonBlockEditorProps) {
  const { buttons } = block;

  if (!editing) {
    return (
      <Group gap="sm">
        {buttons.map((button, index) => (
          <Button
            key={index}
            component="a"
            href={button.url || undefined}
            target="_blank"
            rel="noopener noreferrer"
            color={index === 0 ? FIRST_BUTTON : undefined}
            variant={index === 0 ? 'filled' : 'light'}
            rightSection={button.url ? <IconExternalLink size={14} aria-hidden="true" /> : null}
          >
            {button.title || T.defaultButtonLabel}
          </Button>
        ))}
      </Group>
    );
  }

  const set = (index: number, patch: Partial<ButtonItem>) =>
    onChange(buttons.map((b, i) => (i === index ? { ...b, ...patch } : b)));

  return (
    <Stack gap="sm">
      {buttons.map((button, index) => (
        <Paper key={index} withBorder radius="md" p="sm" bg="gray.0">
          <Stack gap="xs">
            <Group justify="space-between" gap="xs">
              <Text size="sm" fw={600}>
                {T.buttonNumber(index + 1)}
              </Text>
              {canDeleteButton(index) ? (
                <ActionIcon
                  variant="subtle"
                  color="red"
                  onClick={() => onChange(buttons.filter((_, i) => i !== index))}
                  aria-label={`${T.deleteButton} ${index + 1}`}
                >
                  <IconTrash size={16} aria-hidden="true" />
                </ActionIcon>
              ) : null}
            </Group>
            <TextInput
              label={T.buttonLabel}
              value={button.title}
              maxLength={BUTTON_LABEL_MAX}
              onChange={(event) => set(index, { title: event.currentTarget.value.slice(0, BUTTON_LABEL_MAX) })}
              description={T.buttonCounter(button.title.length, BUTTON_LABEL_MAX)}
              autoComplete="off"
            />
            <TextInput
              label={T.buttonUrl}
              placeholder={T.buttonUrlPlaceholder}
              value={button.url}
              onChange={(event) => set(index, { url: event.currentTarget.value })}
              type="url"
              maxLength={2000}
              autoComplete="off"
            />
          </Stack>
        </Paper>
      ))}
      <Button
        variant="light"
        leftSection={<IconPlus size={16} aria-hidden="true" />}
        disabled={!canAddButton(buttons)}
        onClick={() => onChange([...buttons, { title: T.defaultButtonLabel, url: '' }])}
        style={{ alignSelf: 'flex-start' }}
      >
        {T.addButton}
      </Button>
    </Stack>
  );
}
