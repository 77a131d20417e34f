import type { CatalogueCategory, CatalogueCourse } from '@lms/contract';
import { ActionIcon, Badge, Group, Stack, Text, TextInput, Title, Tooltip, UnstyledButton } from '@mantine/core';
import { IconArrowDown, IconArrowUp, IconPencil, IconPlus, IconTrash } from '@tabler/icons-react';
import { useRef, useState, type KeyboardEvent } from 'react';
import { CourseCard, CourseGrid } from '../../shared/CourseCard';
import classes from './Catalogue.module.css';
import { isUncategorised } from './logic';
import { T } from './texts';

/** Mantine's greens are too light behind small white text (WCAG AA 4.5:1). */
const PUBLISHED_GREEN = '#1f6f30';

function PublishedBadge({ published }: { published: boolean }) {
  return (
    <Badge color={published ? PUBLISHED_GREEN : 'red.9'} variant="filled" radius="sm" tt="none" fw={600} size="md">
      {published ? T.published : T.unpublished}
    </Badge>
  );
}

function CatalogueCard({ course }: { course: CatalogueCourse }) {
  return <CourseCard course={course} badge={<PublishedBadge published={course.is_published} />} />;
}

interface InlineNameProps {
  name: string;
  onSave: (name: string) => void;
}

/**
 * A category name that turns into a field on click (spec 03 §2.3): Enter or leaving the field
 * saves, Escape cancels; an empty or unchanged name changes nothing.
 */
function InlineName({ name, onSave }: InlineNameProps) {
  const [editing, setEditing] = useState(false);
  const [value, setValue] = useState(name);
  const settled = useRef(false);

  const start = () => {
    settled.current = false;
    setValue(name);
    setEditing(true);
  };
  const finish = (save: boolean) => {
    if (settled.current) return;
    settled.current = true;
    setEditing(false);
    const trimmed = value.trim();
    if (save && trimmed !== '' && trimmed !== name) onSave(trimmed);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Enter') {
      event.preventDefault();
      finish(true);
    } else if (event.key === 'Escape') {
      event.preventDefault();
      event.stopPropagation();
      finish(false);
    }
  };

  if (editing) {
    return (
      <TextInput
        value={value}
        onChange={(event) => setValue(event.currentTarget.value)}
        onKeyDown={onKeyDown}
        onBlur={() => finish(true)}
        aria-label={T.categoryName}
        maxLength={255}
        autoFocus
        size="md"
        w={{ base: '100%', xs: 360 }}
        styles={{ input: { fontWeight: 700 } }}
      />
    );
  }
  return (
    <Title order={2} fz={{ base: 17, sm: 19 }} miw={0}>
      <UnstyledButton className={classes.nameButton} onClick={start} title={T.renameHint}>
        <span>{name}</span>
        <IconPencil size={16} className={classes.pencil} aria-hidden="true" />
      </UnstyledButton>
    </Title>
  );
}

interface EditControlsProps {
  name: string;
  originalName: string;
  invalid: boolean;
  first: boolean;
  last: boolean;
  onName: (name: string) => void;
  onMove: (delta: -1 | 1) => void;
  onDelete: () => void;
}

/** Edit mode: rename field, move up and down, delete (spec 03 §2.3). */
function EditControls({ name, originalName, invalid, first, last, onName, onMove, onDelete }: EditControlsProps) {
  return (
    <Group gap="xs" wrap="nowrap" w="100%" align="flex-start">
      <TextInput
        value={name}
        onChange={(event) => onName(event.currentTarget.value)}
        aria-label={`${T.categoryName} «${originalName}»`}
        error={invalid ? T.emptyName : null}
        maxLength={255}
        flex={1}
        maw={420}
        styles={{ input: { fontWeight: 600 } }}
      />
      <Group gap={6} wrap="nowrap" ml="auto">
        <Tooltip label={T.moveUp(originalName)} openDelay={300}>
          <ActionIcon
            variant="default"
            size={36}
            aria-label={T.moveUp(originalName)}
            disabled={first}
            onClick={() => onMove(-1)}
          >
            <IconArrowUp size={18} aria-hidden="true" />
          </ActionIcon>
        </Tooltip>
        <Tooltip label={T.moveDown(originalName)} openDelay={300}>
          <ActionIcon
            variant="default"
            size={36}
            aria-label={T.moveDown(originalName)}
            disabled={last}
            onClick={() => onMove(1)}
          >
            <IconArrowDown size={18} aria-hidden="true" />
          </ActionIcon>
        </Tooltip>
        <Tooltip label={T.deleteCategory(originalName)} openDelay={300}>
          <ActionIcon
            variant="light"
            color="red"
            size={36}
            aria-label={T.deleteCategory(originalName)}
            onClick={onDelete}
          >
            <IconTrash size={18} aria-hidden="true" />
          </ActionIcon>
        </Tooltip>
      </Group>
    </Group>
  );
}

export interface CategorySectionProps {
  category: CatalogueCategory;
  /** The name as loaded (labels of the edit controls stay put while the name is typed). */
  originalName: string;
  editing: boolean;
  first: boolean;
  last: boolean;
  invalid: boolean;
  onDraftName: (name: string) => void;
  onMove: (delta: -1 | 1) => void;
  onDelete: () => void;
  onRename: (name: string) => void;
  onAddCourse: () => void;
}

/** One category of the catalogue: its header (inline rename, or edit controls) and its course cards. */
export function CategorySection({
  category,
  originalName,
  editing,
  first,
  last,
  invalid,
  onDraftName,
  onMove,
  onDelete,
  onRename,
  onAddCourse,
}: CategorySectionProps) {
  const loose = isUncategorised(category);
  const count = category.items.length;

  let header;
  if (loose) {
    header = (
      <Title order={2} fz={{ base: 17, sm: 19 }}>
        {category.name}
      </Title>
    );
  } else if (editing) {
    header = (
      <EditControls
        name={category.name}
        originalName={originalName}
        invalid={invalid}
        first={first}
        last={last}
        onName={onDraftName}
        onMove={onMove}
        onDelete={onDelete}
      />
    );
  } else {
    header = <InlineName name={category.name} onSave={onRename} />;
  }

  return (
    <Stack
      component="section"
      aria-label={editing ? originalName : category.name}
      gap="md"
      className={editing ? classes.editSection : undefined}
      data-testid="catalogue-category"
      data-category-id={category.id}
    >
      <Group gap="sm" wrap="nowrap" align="center" mih={36}>
        {header}
        {!editing || loose ? (
          <Text size="sm" c="dimmed" aria-hidden="true" style={{ flexShrink: 0 }}>
            {count}
          </Text>
        ) : null}
      </Group>
      {count === 0 && editing ? (
        <Text size="sm" c="dimmed">
          {T.emptyCategory}
        </Text>
      ) : null}
      {count > 0 || !editing ? (
        <CourseGrid>
          {category.items.map((course) => (
            <CatalogueCard key={course.id} course={course} />
          ))}
          {!editing ? (
            <UnstyledButton className={classes.addTile} onClick={onAddCourse} aria-label={T.addCourseTo(category.name)}>
              <IconPlus size={28} stroke={1.6} aria-hidden="true" />
              <Text fw={600} inherit>
                {T.addCourseTile}
              </Text>
              {count === 0 ? (
                <Text size="sm" c="dimmed">
                  {T.emptyCategory}
                </Text>
              ) : null}
            </UnstyledButton>
          ) : null}
        </CourseGrid>
      ) : null}
    </Stack>
  );
}
