import { ActionIcon, Button, Group, Paper, Stack, Text, ThemeIcon } from '@mantine/core';
import {
  IconCheck,
  IconClick,
  IconFileUpload,
  IconPencil,
  IconPhoto,
  IconTextSize,
  IconTrash,
  IconVideo,
} from '@tabler/icons-react';
import type { ReactNode } from 'react';
import type { EditableBlockType } from '../logic';
import { MoveArrows } from '../MoveArrows';
import { BLOCK_LABELS, T } from '../texts';

const ICONS = {
  text: IconTextSize,
  video: IconVideo,
  image: IconPhoto,
  file: IconFileUpload,
  button: IconClick,
} as const;

interface BlockCardProps {
  type: EditableBlockType;
  editing: boolean;
  first: boolean;
  last: boolean;
  onToggleEditing: () => void;
  onMove: (delta: -1 | 1) => void;
  onDelete: () => void;
  children: ReactNode;
}

/** A content block of the lesson editor: its type, editing toggle, order arrows and delete. */
export function BlockCard({ type, editing, first, last, onToggleEditing, onMove, onDelete, children }: BlockCardProps) {
  const Icon = ICONS[type];
  const label = BLOCK_LABELS[type];
  const editLabel = editing ? T.doneBlock : T.editBlock;
  const editIcon = editing ? <IconCheck size={14} aria-hidden="true" /> : <IconPencil size={14} aria-hidden="true" />;
  return (
    <Paper
      withBorder
      p={{ base: 'sm', sm: 'md' }}
      radius="md"
      component="section"
      aria-label={`Блок «${label}»`}
      data-testid={`block-${type}`}
      style={editing ? { borderColor: 'var(--mantine-color-brand-4)' } : undefined}
    >
      <Stack gap="sm">
        <Group justify="space-between" gap="xs" wrap="nowrap">
          <Group gap={8} wrap="nowrap" miw={0} style={{ overflow: 'hidden' }}>
            <ThemeIcon variant="light" size="md" radius="md">
              <Icon size={16} aria-hidden="true" />
            </ThemeIcon>
            <Text fw={600} size="sm" truncate="end">
              {label}
            </Text>
          </Group>
          <Group gap={4} wrap="nowrap">
            <MoveArrows
              upLabel={T.blockUp}
              downLabel={T.blockDown}
              upDisabled={first}
              downDisabled={last}
              onMove={onMove}
            />
            <Button
              visibleFrom="sm"
              variant={editing ? 'light' : 'subtle'}
              size="xs"
              onClick={onToggleEditing}
              leftSection={editIcon}
              aria-expanded={editing}
            >
              {editLabel}
            </Button>
            <ActionIcon
              hiddenFrom="sm"
              variant={editing ? 'light' : 'subtle'}
              onClick={onToggleEditing}
              aria-expanded={editing}
              aria-label={editLabel}
            >
              {editIcon}
            </ActionIcon>
            <ActionIcon variant="subtle" color="red" onClick={onDelete} aria-label={T.deleteBlock}>
              <IconTrash size={16} aria-hidden="true" />
            </ActionIcon>
          </Group>
        </Group>
        {children}
      </Stack>
    </Paper>
  );
}
