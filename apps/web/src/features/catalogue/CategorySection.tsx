import { UNCATEGORISED_ID, type CatalogueCourse } from '@lms/contract';
import { ActionIcon, Badge, Group, Stack, Text, TextInput, Title, Tooltip, UnstyledButton } from '@mantine/core';
import { IconArrowDown, IconArrowUp, IconPencil, IconPlus, IconTrash } from '@tabler/icons-react';
import { memo, useState, type ReactNode } from 'react';
import { CourseCard, CourseGrid } from '../../shared/CourseCard';
import { useInlineRename } from '../../shared/useInlineRename';
import classes from './Catalogue.module.css';
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

/** Redrawn only when its course changes (not on every keystroke of the page). */
const CatalogueCard = memo(function CatalogueCard({ course }: { course: CatalogueCourse }) {
  return <CourseCard course={course} badge={<PublishedBadge published={course.is_published} />} />;
});

interface InlineNameProps {
  name: string;
  onSave: (name: string) => void;
}

/**
 * A category name that turns into a field on click (docs/product.md §Catalogue): Enter or leaving the field
 * saves, Escape cancels; an empty or unchanged name changes nothing.
 */
function InlineName({ name, onSave }: InlineNameProps) {
  const [editing, setEditing] = useState(false);
  const rename = useInlineRename(name, () => setEditing(false), onSave);

  const start = () => {
    rename.begin();
    setEditing(true);
  };

  if (editing) {
    return (
      <TextInput
        {...rename.field}
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

interface ControlButtonProps {
  /** The button's name and its tooltip. */
  label: string;
  danger?: boolean;
  disabled?: boolean;
  onClick: () => void;
  children: ReactNode;
}

/** An icon button of the edit controls, named by its tooltip. */
function ControlButton({ label, danger, disabled, onClick, children }: ControlButtonProps) {
  return (
    <Tooltip label={label} openDelay={300}>
      <ActionIcon
        variant={danger ? 'light' : 'default'}
        color={danger ? 'red' : undefined}
        size={36}
        aria-label={label}
        disabled={disabled}
        onClick={onClick}
      >
        {children}
      </ActionIcon>
    </Tooltip>
  );
}

/** Edit mode: rename field, move up and down, delete (docs/product.md §Catalogue). */
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
        <ControlButton label={T.moveUp(originalName)} disabled={first} onClick={() => onMove(-1)}>
          <IconArrowUp size={18} aria-hidden="true" />
        </ControlButton>
        <ControlButton label={T.moveDown(originalName)} disabled={last} onClick={() => onMove(1)}>
          <IconArrowDown size={18} aria-hidden="true" />
        </ControlButton>
        <ControlButton label={T.deleteCategory(originalName)} danger onClick={onDelete}>
          <IconTrash size={18} aria-hidden="true" />
        </ControlButton>
      </Group>
    </Group>
  );
}

export interface CategorySectionProps {
  id: number;
  /** The name shown (in edit mode, the draft's). */
  name: string;
  items: CatalogueCourse[];
  /** The name as loaded (labels of the edit controls stay put while the name is typed). */
  originalName: string;
  editing: boolean;
  first: boolean;
  last: boolean;
  invalid: boolean;
  onDraftName: (id: number, name: string) => void;
  onMove: (id: number, delta: -1 | 1) => void;
  onDelete: (id: number, name: string) => void;
  onRename: (id: number, name: string) => void;
  onAddCourse: (id: number) => void;
}

/**
 * One category of the catalogue: its header (inline rename, or edit controls) and its course cards.
 * The handlers take the category's id, so the page passes the same ones to every section and a
 * section is redrawn only when its own props change.
 */
export const CategorySection = memo(function CategorySection({
  id,
  name,
  items,
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
  const loose = id === UNCATEGORISED_ID;
  const count = items.length;

  let header;
  if (loose) {
    header = (
      <Title order={2} fz={{ base: 17, sm: 19 }}>
        {name}
      </Title>
    );
  } else if (editing) {
    header = (
      <EditControls
        name={name}
        originalName={originalName}
        invalid={invalid}
        first={first}
        last={last}
        onName={(value) => onDraftName(id, value)}
        onMove={(delta) => onMove(id, delta)}
        onDelete={() => onDelete(id, name)}
      />
    );
  } else {
    header = <InlineName name={name} onSave={(value) => onRename(id, value)} />;
  }

  return (
    <Stack
      component="section"
      aria-label={editing ? originalName : name}
      gap="md"
      className={editing ? classes.editSection : undefined}
      data-testid="catalogue-category"
      data-category-id={id}
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
          {items.map((course) => (
            <CatalogueCard key={course.id} course={course} />
          ))}
          {!editing ? (
            <UnstyledButton
              className={classes.addTile}
              onClick={() => onAddCourse(id)}
              aria-label={T.addCourseTo(name)}
            >
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
});
