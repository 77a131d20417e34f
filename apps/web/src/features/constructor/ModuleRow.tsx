import type { ConstructorModule } from '@lms/contract';
import { Accordion, ActionIcon, Badge, Button, Group, Menu, Stack, Text, TextInput, Tooltip } from '@mantine/core';
import { Draggable } from '@hello-pangea/dnd';
import {
  IconCheck,
  IconCircleCheck,
  IconDots,
  IconFileText,
  IconGripVertical,
  IconListCheck,
  IconPackage,
  IconPencil,
  IconPlus,
  IconTrash,
} from '@tabler/icons-react';
import { useState } from 'react';
import { messageOr } from '../../lib/errors';
import { Link } from '../../shared/Link';
import { toastError, toastSuccess } from '../../shared/toast';
import { useInlineRename } from '../../shared/useInlineRename';
import classes from './Constructor.module.css';
import { itemKey, itemPath, isOpenItem, moduleKey, type ModuleItem, type OpenItem, type ShownModule } from './logic';
import { MoveArrows } from './MoveArrows';
import { useRenameModule } from './queries';
import { T } from './texts';

export interface ModuleRowProps {
  entry: ShownModule;
  index: number;
  count: number;
  courseId: number;
  openItem: OpenItem | null;
  searching: boolean;
  onMove: (index: number, delta: -1 | 1) => void;
  onMoveItem: (moduleId: number, items: ModuleItem[], index: number, delta: -1 | 1) => void;
  onAddLesson: (moduleId: number) => void;
  onDelete: (module: ConstructorModule) => void;
}

/** One module of the constructor's left panel: drag handle, name (renamed inline), arrows, actions, and its lessons and tests. */
export function ModuleRow({
  entry,
  index,
  count,
  courseId,
  openItem,
  searching,
  onMove,
  onMoveItem,
  onAddLesson,
  onDelete,
}: ModuleRowProps) {
  const { module, items } = entry;
  const [renaming, setRenaming] = useState(false);
  // While searching the list is filtered, so the order is changed only on the full list.
  const fixed = searching;

  return (
    <Draggable draggableId={moduleKey(module.id)} index={index} isDragDisabled={fixed || renaming}>
      {(drag, snapshot) => (
        <div
          ref={drag.innerRef}
          {...drag.draggableProps}
          style={{ ...drag.draggableProps.style, marginBottom: 8 }}
          className={`${classes.module} ${snapshot.isDragging ? classes.moduleDragging : ''}`}
          data-testid="constructor-module"
          aria-label={module.name}
          role="group"
        >
          <Accordion.Item value={moduleKey(module.id)}>
            <Group gap={2} wrap="nowrap" pr={4} pl={4}>
              <div
                {...drag.dragHandleProps}
                className={`${classes.handle} ${fixed ? classes.handleDisabled : ''}`}
                aria-label={T.dragModule(module.name)}
              >
                <IconGripVertical size={16} aria-hidden="true" />
              </div>
              {renaming ? (
                <ModuleNameInput courseId={courseId} module={module} onDone={() => setRenaming(false)} />
              ) : (
                <Accordion.Control
                  style={{ flex: 1, minWidth: 0 }}
                  onDoubleClick={() => setRenaming(true)}
                  icon={
                    module.status === 'complete' ? (
                      <IconCircleCheck size={16} color="var(--mantine-color-green-7)" aria-label={T.moduleComplete} />
                    ) : undefined
                  }
                >
                  <Text fw={600} size="sm" lineClamp={2} style={{ wordBreak: 'break-word' }}>
                    {module.name}
                  </Text>
                </Accordion.Control>
              )}
              <MoveArrows
                size="sm"
                upLabel={T.moveUp(module.name)}
                downLabel={T.moveDown(module.name)}
                upDisabled={fixed || index === 0}
                downDisabled={fixed || index === count - 1}
                onMove={(delta) => onMove(index, delta)}
              />
              <Menu position="bottom-end" withinPortal returnFocus={false}>
                <Menu.Target>
                  <ActionIcon variant="subtle" color="gray" size="sm" aria-label={T.moduleActions(module.name)}>
                    <IconDots size={16} aria-hidden="true" />
                  </ActionIcon>
                </Menu.Target>
                <Menu.Dropdown>
                  <Menu.Item
                    leftSection={<IconPlus size={14} aria-hidden="true" />}
                    onClick={() => onAddLesson(module.id)}
                  >
                    {T.addLesson}
                  </Menu.Item>
                  <Menu.Item
                    leftSection={<IconPencil size={14} aria-hidden="true" />}
                    onClick={() => setRenaming(true)}
                  >
                    {T.renameModule}
                  </Menu.Item>
                  <Menu.Divider />
                  <Menu.Item
                    color="red"
                    leftSection={<IconTrash size={14} aria-hidden="true" />}
                    onClick={() => onDelete(module)}
                  >
                    {T.deleteModule}
                  </Menu.Item>
                </Menu.Dropdown>
              </Menu>
            </Group>
            <Accordion.Panel className={classes.fadeIn}>
              <Stack gap={2}>
                {items.length === 0 ? (
                  <Text size="sm" c="dimmed" px="xs" py={4}>
                    {T.emptyModule}
                  </Text>
                ) : (
                  items.map((item, i) => (
                    <ItemRow
                      key={itemKey(item)}
                      item={item}
                      href={itemPath(courseId, item)}
                      active={isOpenItem(openItem, item)}
                      first={i === 0}
                      last={i === items.length - 1}
                      fixed={fixed}
                      onMove={(delta) => onMoveItem(module.id, items, i, delta)}
                    />
                  ))
                )}
                <Button
                  variant="subtle"
                  size="xs"
                  justify="flex-start"
                  leftSection={<IconPlus size={14} aria-hidden="true" />}
                  onClick={() => onAddLesson(module.id)}
                  aria-label={`${T.addLesson} в модуль «${module.name}»`}
                >
                  {T.addLesson}
                </Button>
              </Stack>
            </Accordion.Panel>
          </Accordion.Item>
        </div>
      )}
    </Draggable>
  );
}

interface ItemRowProps {
  item: ModuleItem;
  href: string;
  active: boolean;
  first: boolean;
  last: boolean;
  fixed: boolean;
  onMove: (delta: -1 | 1) => void;
}

/** A lesson or test of a module: a link, its published state, and up/down arrows. */
function ItemRow({ item, href, active, first, last, fixed, onMove }: ItemRowProps) {
  const scorm = item.type === 'lesson' && item.kind === 'scorm';
  const Icon = scorm ? IconPackage : item.type === 'lesson' ? IconFileText : IconListCheck;
  const state = item.is_published ? T.published : T.unpublished;
  return (
    <Group
      gap={2}
      wrap="nowrap"
      className={`${classes.item} ${active ? classes.itemActive : ''}`}
      data-testid="constructor-item"
    >
      <Link to={href} className={classes.itemLink} aria-current={active ? 'page' : undefined}>
        <Group gap={8} wrap="nowrap">
          <Icon
            size={16}
            aria-label={scorm ? T.scormKind : item.type === 'lesson' ? T.lessonKind : T.testKind}
            color="var(--mantine-color-brand-7)"
            style={{ flex: '0 0 16px' }}
          />
          <Text size="sm" fw={active ? 600 : 400} truncate="end" flex={1} miw={0}>
            {item.name || T.lessonNamePlaceholder}
          </Text>
          {scorm ? (
            <Badge size="xs" variant="light" color="grape" radius="sm" style={{ flex: 'none' }} aria-hidden="true">
              {T.scormMarker}
            </Badge>
          ) : null}
          <Tooltip label={state} openDelay={200} closeDelay={200} position="top" withArrow>
            <span
              className={classes.statusDot}
              style={{ background: `var(--mantine-color-${item.is_published ? 'green' : 'red'}-6)` }}
              role="img"
              aria-label={state}
            />
          </Tooltip>
        </Group>
      </Link>
      <MoveArrows
        size="sm"
        iconSize={14}
        upLabel={T.moveUp(item.name)}
        downLabel={T.moveDown(item.name)}
        upDisabled={fixed || first}
        downDisabled={fixed || last}
        onMove={onMove}
      />
    </Group>
  );
}

/**
 * Inline rename of a module (docs/product.md §Constructor): Enter or leaving the field saves, Escape cancels, an empty
 * name reverts to the old one. The new name shows at once and comes back on failure.
 */
function ModuleNameInput({
  courseId,
  module,
  onDone,
}: {
  courseId: number;
  module: ConstructorModule;
  onDone: () => void;
}) {
  const renameModule = useRenameModule(courseId);
  const rename = useInlineRename(module.name, onDone, (name) => {
    // The field is gone by the time the answer comes: the promise (not mutate's callbacks) reports it.
    renameModule.mutateAsync({ id: module.id, name, previous: module.name }).then(
      (message) => toastSuccess(message),
      (error: unknown) => toastError(messageOr(error, T.moduleRenameError)),
    );
  });

  return (
    <Group gap={2} wrap="nowrap" flex={1} miw={0} py={4}>
      <TextInput {...rename.field} aria-label={T.moduleName} size="xs" maxLength={255} autoFocus flex={1} miw={0} />
      <ActionIcon
        variant="subtle"
        color="green"
        size="sm"
        aria-label={T.save}
        onMouseDown={(event) => event.preventDefault()}
        onClick={() => rename.finish(true)}
      >
        <IconCheck size={14} aria-hidden="true" />
      </ActionIcon>
    </Group>
  );
}
