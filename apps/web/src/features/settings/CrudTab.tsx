/*
 * The one screen building block of the departments and study groups tabs: the searchable table,
 * the add/edit modal with the name, the entity's own fields and the courses, saving and deleting.
 * Each tab gives its texts, its table columns and rows, and its own fields (see CrudEntity).
 */
import { Stack, TextInput } from '@mantine/core';
import { useState, type ComponentType, type ReactNode } from 'react';
import { successMessage } from '../../lib/answer';
import { messageOr } from '../../lib/errors';
import { toastError, toastSuccess } from '../../shared/toast';
import { CHIPS_ADD_FORM, CHIPS_DEFAULT, CourseMultiSelect } from './CourseMultiSelect';
import type { CrudItem, CrudResource } from './crud';
import { EntityForm, FormModal, FormSkeleton, useAssignedCourses, type ModalFormProps } from './forms';
import { T } from './texts';
import { AccessDenied, DataTableBody, SettingsTable, TableCard, Toolbar, useItemModal, useListTab } from './ui';

export interface CrudTexts {
  /** The list: search placeholder, add button, the table's name and the empty list. */
  search: string;
  add: string;
  table: string;
  empty: string;
  /** The form: titles, the name field and its 'fill it in' toast. */
  addTitle: string;
  editTitle: string;
  nameLabel: string;
  needName: string;
  /** Toasts when the server gives no message of its own (docs/product.md §Settings). */
  added: string;
  updated: string;
  deleted: string;
  addError: string;
  updateError: string;
  deleteError: string;
  /** The confirmation of deleting. */
  confirmDeleteTitle: string;
  confirmDelete: (name: string) => string;
}

/** What a tab's own fields get: the name field to place, their value, its error and the busy flag. */
export interface CrudFieldsProps<Item, Extra> {
  item: Item | null;
  name: ReactNode;
  value: Extra;
  onChange: (value: Extra) => void;
  /** The message of the tab's own check (`validate`), shown on its field. */
  error: string | null;
  busy: boolean;
}

export interface CrudEntity<Item extends CrudItem, Body, Extra> {
  resource: CrudResource<Item, Body>;
  texts: CrudTexts;
  /** The table's header cells, how many columns, the rows left by a search, one row. */
  head: ReactNode;
  columns: number;
  rows: (items: Item[], search: string) => Item[];
  Row: ComponentType<{ item: Item; onOpen: () => void }>;
  /** Heights of the placeholder blocks while an item's courses load. */
  skeleton: number[];
  /** The tab's own fields: their start, their check (a message, or null) and their layout. */
  initial: (item: Item | null) => Extra;
  validate?: (value: Extra) => string | null;
  Fields: ComponentType<CrudFieldsProps<Item, Extra>>;
  /** The body of the save call. */
  body: (name: string, courseIds: number[], value: Extra) => Body;
}

/** A settings tab listing one kind of item, with its add and edit modal (docs/product.md §Settings). */
export function CrudTab<Item extends CrudItem, Body, Extra>({ entity }: { entity: CrudEntity<Item, Body, Extra> }) {
  const { texts, Row } = entity;
  const list = entity.resource.useList();
  const { search, setSearch, rows, forbidden } = useListTab(list, entity.rows);
  const modal = useItemModal<Item>();

  if (forbidden) return <AccessDenied />;

  return (
    <Stack gap="md">
      <Toolbar
        search={search}
        onSearch={setSearch}
        placeholder={texts.search}
        addLabel={texts.add}
        onAdd={() => modal.open(null)}
      />
      <TableCard>
        <SettingsTable label={texts.table} minWidth={340} head={entity.head}>
          <DataTableBody
            query={list}
            rows={rows}
            columns={entity.columns}
            search={search}
            emptyText={texts.empty}
            renderRow={(item) => <Row key={item.id} item={item} onOpen={() => modal.open(item)} />}
          />
        </SettingsTable>
      </TableCard>
      <CrudModal entity={entity} opened={modal.opened} item={modal.item} onClose={modal.close} />
    </Stack>
  );
}

interface CrudModalProps<Item extends CrudItem, Body, Extra> {
  entity: CrudEntity<Item, Body, Extra>;
  opened: boolean;
  /** null: a new item. */
  item: Item | null;
  onClose: () => void;
}

/** Add and edit an item (docs/product.md §Settings). */
function CrudModal<Item extends CrudItem, Body, Extra>({
  entity,
  opened,
  item,
  onClose,
}: CrudModalProps<Item, Body, Extra>) {
  return (
    <FormModal opened={opened} onClose={onClose} title={item ? entity.texts.editTitle : entity.texts.addTitle}>
      {(form) =>
        item ? (
          <EditLoader key={item.id} entity={entity} item={item} {...form} />
        ) : (
          <CrudForm entity={entity} item={null} courseIds={[]} {...form} />
        )
      }
    </FormModal>
  );
}

interface LoaderProps<Item extends CrudItem, Body, Extra> extends ModalFormProps {
  entity: CrudEntity<Item, Body, Extra>;
  item: Item;
}

/** GET {path}/{id}/courses; when it fails the list's course_ids are used. */
function EditLoader<Item extends CrudItem, Body, Extra>({ entity, item, ...rest }: LoaderProps<Item, Body, Extra>) {
  const query = entity.resource.useCourses(item.id);
  const courses = useAssignedCourses(query, item.course_ids);
  if (!courses) return <FormSkeleton heights={entity.skeleton} />;
  return <CrudForm entity={entity} item={item} courseIds={courses.courseIds} known={courses.known} {...rest} />;
}

interface FormProps<Item extends CrudItem, Body, Extra> extends ModalFormProps {
  entity: CrudEntity<Item, Body, Extra>;
  item: Item | null;
  courseIds: number[];
  known?: { id: number; name: string }[] | undefined;
}

function CrudForm<Item extends CrudItem, Body, Extra>({
  entity,
  item,
  courseIds: initialCourses,
  known,
  onClose,
  busy,
  setBusy,
}: FormProps<Item, Body, Extra>) {
  const { texts, Fields } = entity;
  const save = entity.resource.useSave();
  const remove = entity.resource.useRemove();
  const [name, setName] = useState(item?.name ?? '');
  const [extra, setExtra] = useState<Extra>(() => entity.initial(item));
  const [courseIds, setCourseIds] = useState<number[]>(initialCourses);
  const [nameError, setNameError] = useState(false);
  const [extraError, setExtraError] = useState<string | null>(null);
  const isNew = item === null;

  const onSubmit = async () => {
    if (name.trim() === '') {
      setNameError(true);
      toastError(texts.needName);
      return;
    }
    const problem = entity.validate?.(extra) ?? null;
    if (problem) {
      setExtraError(problem);
      toastError(problem);
      return;
    }
    setBusy(true);
    try {
      const data = await save.mutateAsync({ id: item?.id ?? null, body: entity.body(name.trim(), courseIds, extra) });
      toastSuccess(successMessage(data, isNew ? texts.added : texts.updated));
      onClose();
    } catch (error) {
      toastError(messageOr(error, isNew ? texts.addError : texts.updateError));
    } finally {
      setBusy(false);
    }
  };

  const onDelete = async (id: number) => {
    setBusy(true);
    try {
      const data = await remove.mutateAsync(id);
      toastSuccess(successMessage(data, texts.deleted));
      onClose();
    } catch (error) {
      toastError(messageOr(error, texts.deleteError));
    } finally {
      setBusy(false);
    }
  };

  const nameField = (
    <TextInput
      label={texts.nameLabel}
      value={name}
      onChange={(e) => {
        setName(e.currentTarget.value);
        setNameError(false);
      }}
      error={nameError}
      withAsterisk
      disabled={busy}
      autoComplete="off"
      data-autofocus
    />
  );

  return (
    <EntityForm
      label={isNew ? texts.addTitle : texts.editTitle}
      submitLabel={isNew ? T.addSubmit : T.save}
      busy={busy}
      onSubmit={onSubmit}
      onCancel={onClose}
      deletion={
        item
          ? {
              title: texts.confirmDeleteTitle,
              message: texts.confirmDelete(item.name),
              onConfirm: () => onDelete(item.id),
            }
          : undefined
      }
    >
      <Fields
        item={item}
        name={nameField}
        value={extra}
        onChange={(value) => {
          setExtra(value);
          setExtraError(null);
        }}
        error={extraError}
        busy={busy}
      />
      <CourseMultiSelect
        value={courseIds}
        onChange={setCourseIds}
        visible={isNew ? CHIPS_ADD_FORM : CHIPS_DEFAULT}
        known={known}
        disabled={busy}
      />
    </EntityForm>
  );
}
