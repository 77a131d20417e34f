import type { ConstructorLesson, LessonBlock } from '@lms/contract';
import { Button, Group, Menu, Paper, Stack, Text, TextInput } from '@mantine/core';
import {
  IconClick,
  IconDeviceFloppy,
  IconFileUpload,
  IconPhoto,
  IconPlus,
  IconTextSize,
  IconVideo,
} from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { messageOr } from '../../lib/errors';
import { moveBy } from '../../lib/reorder';
import { toastError, toastSuccess } from '../../shared/toast';
import { BlockBody } from './blocks/BlockBody';
import { BlockCard } from './blocks/BlockCard';
import classes from './Constructor.module.css';
import { ConfirmDialog } from './dialogs';
import { DeleteButton, ItemHeader, useItemHeading } from './ItemHeader';
import { LEAVE_WITHOUT_ASKING, LeaveGuard } from './LeaveGuard';
import {
  contentsPayload,
  draftFromContents,
  EDITABLE_BLOCK_TYPES,
  isSaved,
  newBlock,
  toDraftBlock,
  toSaveBlock,
  type DraftBlock,
  type EditableBlockType,
  type LessonDraft,
} from './logic';
import type { LessonSaveControl } from './ModulePanel';
import { useDeleteLesson, useSaveContents, useUpdateLesson } from './lessonQueries';
import { constructorKeys } from './queries';
import { singleLineHandlers } from './singleLine';
import { BLOCK_LABELS, T } from './texts';

const MENU_ICONS: Record<EditableBlockType, ReactNode> = {
  text: <IconTextSize size={16} aria-hidden="true" />,
  video: <IconVideo size={16} aria-hidden="true" />,
  image: <IconPhoto size={16} aria-hidden="true" />,
  file: <IconFileUpload size={16} aria-hidden="true" />,
  button: <IconClick size={16} aria-hidden="true" />,
};

/** The stored blocks without one, as PUT …/contents takes them (deleting a saved block at once). */
function contentsWithout(contents: readonly LessonBlock[], id: number) {
  return contents
    .filter((b) => b.id !== id)
    .flatMap((b) => {
      if (b.type === 'title' || b.type === 'description') {
        return [
          { id: b.id, type: b.type, content: typeof b.content === 'string' ? b.content : '', sort_order: b.sort_order },
        ];
      }
      const draft = toDraftBlock(b);
      return draft ? [toSaveBlock(draft, b.sort_order)] : [];
    });
}

interface LessonEditorProps {
  courseId: number;
  lesson: ConstructorLesson;
  /** Tells the page (and the left panel's save button) whether there is something to save. */
  onSaveControl: (control: LessonSaveControl | null) => void;
}

/**
 * The lesson page of the constructor (docs/product.md §Lesson editor): the name line with its 3000 ms
 * auto-save, the publish switch, deleting, the fixed title and description, the content blocks
 * and 'Сохранить' (disabled until a change and while saving; blocks being edited close first).
 */
export function LessonEditor({ courseId, lesson, onSaveControl }: LessonEditorProps) {
  const navigate = useNavigate();
  const qc = useQueryClient();
  const lessonId = lesson.id;
  const updateLesson = useUpdateLesson(courseId);
  const saveContents = useSaveContents(courseId, lessonId);
  const deleteLesson = useDeleteLesson(courseId);

  const [draft, setDraft] = useState<LessonDraft>(() => draftFromContents(lesson.contents));
  const [dirty, setDirty] = useState(false);
  const [editing, setEditing] = useState<ReadonlySet<string>>(() => new Set());
  const [blockToDelete, setBlockToDelete] = useState<DraftBlock | null>(null);
  const [confirmLesson, setConfirmLesson] = useState(false);
  const saving = saveContents.isPending;

  const change = (update: (d: LessonDraft) => LessonDraft) => {
    setDraft(update);
    setDirty(true);
  };
  const changeBlock = (id: DraftBlock['id'], update: (b: DraftBlock) => DraftBlock) =>
    change((d) => ({ ...d, blocks: d.blocks.map((b) => (b.id === id ? update(b) : b)) }));
  const toggleEditing = (id: DraftBlock['id']) =>
    setEditing((set) => {
      const next = new Set(set);
      const key = String(id);
      if (next.has(key)) next.delete(key);
      else next.add(key);
      return next;
    });

  // ── the name line and the publish switch ──
  const heading = useItemHeading(
    lesson,
    {
      label: T.lessonName,
      placeholder: T.lessonNamePlaceholder,
      renamed: T.lessonRenamed,
      renameError: T.lessonRenameError,
    },
    (change, callbacks) => updateLesson.mutate({ lessonId, ...change }, callbacks),
  );

  const removeLesson = async () => {
    try {
      const message = await deleteLesson.mutateAsync(lessonId);
      toastSuccess(message);
      setConfirmLesson(false);
      // The lesson is gone, and its unsaved changes with it: nothing to ask about.
      void navigate('/management', { state: LEAVE_WITHOUT_ASKING });
    } catch (error) {
      toastError(messageOr(error, T.lessonDeleteError));
      setConfirmLesson(false);
    }
  };

  // ── saving the blocks ──
  const state = useRef({ draft, dirty, saving });
  state.current = { draft, dirty, saving };
  const { mutateAsync: saveMutate } = saveContents;

  const save = useCallback(async () => {
    const { draft: current, dirty: changed, saving: busy } = state.current;
    if (!changed || busy) return;
    // Blocks being edited are closed before saving (docs/product.md §Lesson editor).
    setEditing(new Set());
    try {
      const { contents, message } = await saveMutate(contentsPayload(current));
      setDraft(draftFromContents(contents));
      setDirty(false);
      toastSuccess(message);
    } catch (error) {
      toastError(messageOr(error, T.contentsSaveError));
    }
  }, [saveMutate]);

  useEffect(() => {
    onSaveControl({ canSave: dirty, saving, save: () => void save() });
  }, [dirty, saving, save, onSaveControl]);
  useEffect(() => () => onSaveControl(null), [onSaveControl]);

  // ── blocks ──
  const addBlock = (type: EditableBlockType) => {
    const block = newBlock(type);
    change((d) => ({ ...d, blocks: [...d.blocks, block] }));
    setEditing((set) => new Set(set).add(String(block.id)));
  };

  const moveBlock = (index: number, delta: -1 | 1) => change((d) => ({ ...d, blocks: moveBy(d.blocks, index, delta) }));

  const dropFromDraft = (id: DraftBlock['id']) =>
    setDraft((d) => ({ ...d, blocks: d.blocks.filter((b) => b.id !== id) }));

  /**
   * Deleting a block, once confirmed: a block not saved yet just goes; a saved one is deleted on the
   * server at once (the stored list without it), and the other unsaved edits stay as they are.
   */
  const confirmDeleteBlock = async (block: DraftBlock) => {
    if (!isSaved(block) || typeof block.id !== 'number') {
      dropFromDraft(block.id);
      setBlockToDelete(null);
      toastSuccess(T.blockDeleted);
      return;
    }
    const stored = qc.getQueryData<ConstructorLesson>(constructorKeys.lesson(courseId, lessonId))?.contents ?? [];
    try {
      await saveMutate(contentsWithout(stored, block.id));
      dropFromDraft(block.id);
      toastSuccess(T.blockDeleted);
    } catch (error) {
      toastError(messageOr(error, T.blockDeleteError));
    } finally {
      setBlockToDelete(null);
    }
  };

  const saveLabel = saving ? T.saving : T.save;

  return (
    <Stack gap="md" className={classes.fadeIn}>
      <LeaveGuard when={dirty || heading.namePending} />
      <ItemHeader
        kind={T.lessonKind}
        heading={heading}
        statusLabel={T.lessonStatus}
        actions={
          <>
            <DeleteButton onClick={() => setConfirmLesson(true)}>{T.deleteLesson}</DeleteButton>
            <Button
              leftSection={<IconDeviceFloppy size={16} aria-hidden="true" />}
              onClick={() => void save()}
              disabled={!dirty || saving}
            >
              {saveLabel}
            </Button>
          </>
        }
      >
        <Text
          size="xs"
          c={dirty ? undefined : 'dimmed'}
          className={dirty ? classes.unsaved : undefined}
          aria-live="polite"
        >
          {dirty ? T.unsavedChanges : T.allSaved}
        </Text>
      </ItemHeader>

      <Paper withBorder p={{ base: 'md', sm: 'lg' }}>
        <Stack gap="xs">
          <FixedLine
            label={T.pageTitle}
            value={draft.title.text}
            big
            onChange={(text) => change((d) => ({ ...d, title: { ...d.title, text } }))}
          />
          <FixedLine
            label={T.pageDescription}
            value={draft.description.text}
            onChange={(text) => change((d) => ({ ...d, description: { ...d.description, text } }))}
          />
        </Stack>
      </Paper>

      {draft.blocks.length === 0 ? (
        <Text c="dimmed" ta="center" py="md">
          {T.noBlocks}
        </Text>
      ) : (
        draft.blocks.map((block, index) => {
          const key = String(block.id);
          const open = editing.has(key);
          return (
            <BlockCard
              key={key}
              type={block.type}
              editing={open}
              first={index === 0}
              last={index === draft.blocks.length - 1}
              onToggleEditing={() => toggleEditing(block.id)}
              onMove={(delta) => moveBlock(index, delta)}
              onDelete={() => setBlockToDelete(block)}
            >
              <BlockBody
                block={block}
                editing={open}
                lessonId={lessonId}
                onChange={(update) => changeBlock(block.id, update)}
              />
            </BlockCard>
          );
        })
      )}

      <Group gap="sm">
        <Menu position="bottom-start" withinPortal>
          <Menu.Target>
            <Button variant="light" leftSection={<IconPlus size={16} aria-hidden="true" />}>
              {T.addBlock}
            </Button>
          </Menu.Target>
          <Menu.Dropdown>
            {EDITABLE_BLOCK_TYPES.map((type) => (
              <Menu.Item key={type} leftSection={MENU_ICONS[type]} onClick={() => addBlock(type)}>
                {BLOCK_LABELS[type]}
              </Menu.Item>
            ))}
          </Menu.Dropdown>
        </Menu>
      </Group>

      <ConfirmDialog
        opened={blockToDelete !== null}
        title={T.deleteBlockTitle}
        question={T.deleteBlockQuestion}
        busy={saving}
        onConfirm={() => {
          if (blockToDelete) void confirmDeleteBlock(blockToDelete);
        }}
        onClose={() => setBlockToDelete(null)}
      />
      <ConfirmDialog
        opened={confirmLesson}
        title={T.deleteLessonTitle}
        question={T.deleteLessonQuestion(lesson.name)}
        busy={deleteLesson.isPending}
        onConfirm={() => void removeLesson()}
        onClose={() => setConfirmLesson(false)}
      />
    </Stack>
  );
}

/** The page title or description on top of the blocks: one line, plain-text paste (docs/product.md §Lesson editor). */
function FixedLine({
  label,
  value,
  big = false,
  onChange,
}: {
  label: string;
  value: string;
  big?: boolean;
  onChange: (value: string) => void;
}) {
  return (
    <TextInput
      variant="filled"
      value={value}
      placeholder={label}
      aria-label={label}
      maxLength={1000}
      autoComplete="off"
      {...singleLineHandlers(onChange)}
      size={big ? 'md' : 'sm'}
      styles={big ? { input: { fontWeight: 600 } } : undefined}
    />
  );
}
