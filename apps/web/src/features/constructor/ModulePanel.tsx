import type { ConstructorCourse, ConstructorModule, TestSettings } from '@lms/contract';
import { Accordion, Box, Button, Flex, Paper, Stack, Text, Title } from '@mantine/core';
import { DragDropContext, Droppable, type DropResult } from '@hello-pangea/dnd';
import { IconDeviceFloppy, IconPlus, IconSend } from '@tabler/icons-react';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { messageOr } from '../../lib/errors';
import { moveBy, moveTo } from '../../lib/reorder';
import { SearchInput } from '../../shared/SearchInput';
import { toastError, toastSuccess } from '../../shared/toast';
import classes from './Constructor.module.css';
import { ConfirmDialog, LessonTypeDialog, NameDialog, type NameOutcome } from './dialogs';
import { TestSettingsDialog } from './TestSettingsDialog';
import { defaultSettingsForm } from './testRules';
import {
  itemKey,
  itemPath,
  moduleKey,
  moduleOfItem,
  publishOutcome,
  searchModules,
  type ModuleItem,
  type OpenItem,
} from './logic';
import { LEAVE_WITHOUT_ASKING } from './LeaveGuard';
import { ModuleRow } from './ModuleRow';
import { useCreateLesson } from './lessonQueries';
import { useCreateModule, useDeleteModule, usePublishAll, useSortItems, useSortModules } from './queries';
import { useCreateTest } from './testQueries';
import { T } from './texts';

/** The lesson editor's save, offered by the left panel's save button as well. */
export interface LessonSaveControl {
  canSave: boolean;
  saving: boolean;
  save: () => void;
}

interface ModulePanelProps {
  course: Pick<ConstructorCourse, 'id' | 'title'>;
  modules: ConstructorModule[];
  /** The lesson or test open on the right, if any. */
  openItem: OpenItem | null;
  /** The open lesson's save (none beside a test). */
  lessonSave?: LessonSaveControl | null;
}

type Dialog =
  | { kind: 'none' }
  | { kind: 'module' }
  | { kind: 'type'; moduleId: number }
  | { kind: 'lesson'; moduleId: number }
  | { kind: 'test'; moduleId: number }
  | { kind: 'scorm'; moduleId: number }
  | { kind: 'deleteModule'; module: ConstructorModule };

/**
 * The left panel of the constructor (docs/product.md §Constructor): the course title, 'Поиск по курсу', publish-all,
 * save, and the module accordion with ordering by arrows and by dragging.
 */
export function ModulePanel({ course, modules, openItem, lessonSave = null }: ModulePanelProps) {
  const courseId = course.id;
  const navigate = useNavigate();
  const [query, setQuery] = useState('');
  const [opened, setOpened] = useState<string[]>(() => {
    const current = openItem === null ? undefined : moduleOfItem(modules, openItem);
    return current ? [moduleKey(current.id)] : modules[0] ? [moduleKey(modules[0].id)] : [];
  });
  const openKey = openItem === null ? null : itemKey(openItem);
  const [seenItem, setSeenItem] = useState(openKey);
  const [dialog, setDialog] = useState<Dialog>({ kind: 'none' });
  const [dialogKey, setDialogKey] = useState(0);

  const createModule = useCreateModule(courseId);
  const createLesson = useCreateLesson(courseId);
  const createTest = useCreateTest(courseId);
  const deleteModule = useDeleteModule(courseId);
  const sortModules = useSortModules(courseId);
  const sortItems = useSortItems(courseId);
  const publishAll = usePublishAll(courseId);

  // Opening another lesson or test opens its module.
  if (openKey !== seenItem) {
    setSeenItem(openKey);
    const current = openItem === null ? undefined : moduleOfItem(modules, openItem);
    if (current && !opened.includes(moduleKey(current.id))) setOpened([...opened, moduleKey(current.id)]);
  }

  const searching = query.trim() !== '';
  const { shown } = searchModules(modules, query);

  const changeQuery = (value: string) => {
    setQuery(value);
    // A search opens the modules that hold its matches.
    if (value.trim() !== '') setOpened(searchModules(modules, value).expanded);
  };

  const open = (next: Dialog) => {
    setDialogKey((k) => k + 1);
    setDialog(next);
  };
  const close = () => setDialog((d) => (d.kind === 'deleteModule' ? d : { kind: 'none' }));

  // ── ordering ──
  const moduleIds = modules.map((m) => m.id);
  const reorderModules = (orderedIds: number[]) => {
    sortModules.mutate(orderedIds, {
      onSuccess: (message) => toastSuccess(message),
      onError: (error) => toastError(messageOr(error, T.modulesSortError)),
    });
  };
  const moveModule = (index: number, delta: -1 | 1) => reorderModules(moveBy(moduleIds, index, delta));
  const onDragEnd = (result: DropResult) => {
    if (!result.destination || result.destination.index === result.source.index) return;
    reorderModules(moveTo(moduleIds, result.source.index, result.destination.index));
  };
  const moveItem = (moduleId: number, items: ModuleItem[], index: number, delta: -1 | 1) => {
    sortItems.mutate(
      { moduleId, items: moveBy(items, index, delta) },
      {
        onSuccess: (message) => toastSuccess(message),
        onError: (error) => toastError(messageOr(error, T.itemsSortError)),
      },
    );
  };

  // ── creating and deleting ──
  const submitModule = async (name: string): Promise<NameOutcome> => {
    try {
      const { item, message } = await createModule.mutateAsync(name);
      toastSuccess(message);
      setOpened((list) => [...list, moduleKey(item.id)]);
      return { close: true };
    } catch (error) {
      toastError(messageOr(error, T.moduleCreateError));
      return { close: false };
    }
  };

  const submitLesson = async (moduleId: number, name: string, kind: 'lesson' | 'scorm'): Promise<NameOutcome> => {
    try {
      const { item, message } = await createLesson.mutateAsync({ moduleId, name, kind });
      toastSuccess(message);
      void navigate(itemPath(courseId, item));
      return { close: true };
    } catch (error) {
      toastError(messageOr(error, T.lessonCreateError));
      return { close: false };
    }
  };

  const submitTest = async (moduleId: number, name: string, settings: TestSettings): Promise<boolean> => {
    try {
      const { item, message } = await createTest.mutateAsync({ moduleId, name, settings });
      toastSuccess(message);
      void navigate(itemPath(courseId, item));
      return true;
    } catch (error) {
      toastError(messageOr(error, T.testCreateError));
      return false;
    }
  };

  const confirmDeleteModule = async (module: ConstructorModule) => {
    try {
      const message = await deleteModule.mutateAsync(module.id);
      toastSuccess(message);
      // The open lesson or test went with its module: the constructor opens its first lesson
      // instead, without asking about the gone item's unsaved changes.
      if (openItem !== null && moduleOfItem([module], openItem)) {
        void navigate(`/management/constructor/${courseId}`, { replace: true, state: LEAVE_WITHOUT_ASKING });
      }
    } catch (error) {
      toastError(messageOr(error, T.moduleDeleteError));
    } finally {
      setDialog({ kind: 'none' });
    }
  };

  const publishEverything = () => {
    publishAll.mutate(undefined, {
      onSuccess: ({ tried, failed }) => {
        const outcome = publishOutcome(tried, failed);
        if (outcome.success) toastSuccess(outcome.success);
        if (outcome.error) toastError(outcome.error);
      },
      onError: () => toastError(T.publishAllError),
    });
  };

  return (
    <Paper withBorder p="md" component="nav" aria-label={T.structure} className={classes.panel}>
      <Stack gap="sm">
        <Title order={2} fz="lg" lh={1.3} style={{ wordBreak: 'break-word' }}>
          {course.title}
        </Title>
        <SearchInput value={query} onChange={changeQuery} placeholder={T.search} />
        <Flex gap="xs" wrap="wrap">
          <Button
            variant="light"
            leftSection={<IconSend size={16} aria-hidden="true" />}
            onClick={publishEverything}
            loading={publishAll.isPending}
            flex="1 1 auto"
          >
            {T.publishAll}
          </Button>
          <Button
            leftSection={<IconDeviceFloppy size={16} aria-hidden="true" />}
            onClick={() => lessonSave?.save()}
            disabled={!lessonSave?.canSave || lessonSave.saving}
            flex="1 1 auto"
          >
            {lessonSave?.saving ? T.saving : T.save}
          </Button>
        </Flex>

        {modules.length === 0 ? (
          <Box py="md" ta="center">
            <Text fw={600}>{T.noModules}</Text>
            <Text size="sm" c="dimmed">
              {T.noModulesHint}
            </Text>
          </Box>
        ) : shown.length === 0 ? (
          <Text c="dimmed" size="sm" ta="center" py="md">
            {T.nothingFound}
          </Text>
        ) : (
          <DragDropContext onDragEnd={onDragEnd}>
            <Droppable droppableId="modules">
              {(drop) => (
                <Accordion
                  multiple
                  value={opened}
                  onChange={setOpened}
                  transitionDuration={300}
                  chevronPosition="left"
                  variant="separated"
                  radius="md"
                  styles={{
                    item: { border: '1px solid var(--mantine-color-gray-3)', background: 'transparent' },
                    control: { paddingInline: 6 },
                    label: { paddingBlock: 8 },
                    content: { padding: '0 6px 8px' },
                  }}
                >
                  <div ref={drop.innerRef} {...drop.droppableProps}>
                    {shown.map((entry, index) => (
                      <ModuleRow
                        key={entry.module.id}
                        entry={entry}
                        index={index}
                        count={shown.length}
                        courseId={courseId}
                        openItem={openItem}
                        searching={searching}
                        onMove={moveModule}
                        onMoveItem={moveItem}
                        onAddLesson={(moduleId) => open({ kind: 'type', moduleId })}
                        onDelete={(module) => open({ kind: 'deleteModule', module })}
                      />
                    ))}
                    {drop.placeholder}
                  </div>
                </Accordion>
              )}
            </Droppable>
          </DragDropContext>
        )}

        <Button
          variant="default"
          leftSection={<IconPlus size={16} aria-hidden="true" />}
          onClick={() => open({ kind: 'module' })}
        >
          {T.addModule}
        </Button>
      </Stack>

      <NameDialog
        key={`module-${dialogKey}`}
        opened={dialog.kind === 'module'}
        title={T.newModuleTitle}
        label={T.moduleName}
        submitLabel={T.createModule}
        onClose={close}
        onSubmit={submitModule}
      />
      <LessonTypeDialog
        key={`type-${dialogKey}`}
        opened={dialog.kind === 'type'}
        onClose={close}
        onNext={(kind) => {
          if (dialog.kind === 'type') open({ kind, moduleId: dialog.moduleId });
        }}
      />
      <TestSettingsDialog
        key={`test-${dialogKey}`}
        opened={dialog.kind === 'test'}
        mode="create"
        initial={defaultSettingsForm()}
        onClose={close}
        onSubmit={(settings, name) =>
          dialog.kind === 'test' ? submitTest(dialog.moduleId, name, settings) : Promise.resolve(true)
        }
      />
      <NameDialog
        key={`lesson-${dialogKey}`}
        opened={dialog.kind === 'lesson'}
        title={T.newLessonTitle}
        label={T.lessonName}
        submitLabel={T.createLesson}
        initialName={T.defaultLessonName}
        onClose={close}
        onSubmit={(name) =>
          dialog.kind === 'lesson' ? submitLesson(dialog.moduleId, name, 'lesson') : Promise.resolve({ close: true })
        }
      />
      <NameDialog
        key={`scorm-${dialogKey}`}
        opened={dialog.kind === 'scorm'}
        title={T.newScormTitle}
        label={T.lessonName}
        submitLabel={T.createLesson}
        initialName={T.defaultScormName}
        onClose={close}
        onSubmit={(name) =>
          dialog.kind === 'scorm' ? submitLesson(dialog.moduleId, name, 'scorm') : Promise.resolve({ close: true })
        }
      />
      <ConfirmDialog
        opened={dialog.kind === 'deleteModule'}
        title={T.deleteModuleTitle}
        question={dialog.kind === 'deleteModule' ? T.deleteModuleQuestion(dialog.module.name) : ''}
        busy={deleteModule.isPending}
        onConfirm={() => {
          if (dialog.kind === 'deleteModule') void confirmDeleteModule(dialog.module);
        }}
        onClose={() => setDialog({ kind: 'none' })}
      />
    </Paper>
  );
}
