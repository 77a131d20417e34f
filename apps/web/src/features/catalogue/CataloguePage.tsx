import { UNCATEGORISED_ID, UNCATEGORISED_NAME } from '@lms/contract';
import { Alert, Button, Group, Paper, Stack, Text } from '@mantine/core';
import {
  IconAdjustmentsHorizontal,
  IconCheck,
  IconFolderPlus,
  IconInfoCircle,
  IconLayoutGrid,
  IconPlus,
} from '@tabler/icons-react';
import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { errorStatus, messageOr } from '../../lib/errors';
import { filterGroups } from '../../lib/search';
import { AccessDeniedNotice } from '../../shared/AccessDeniedNotice';
import { LoadErrorNotice, LoadingStatus, Notice, NothingFoundNotice } from '../../shared/ListStates';
import { PageGreeting } from '../../shared/PageGreeting';
import { SearchInput } from '../../shared/SearchInput';
import { useSession } from '../../shared/session';
import { toastError, toastSuccess } from '../../shared/toast';
import { CategorySection } from './CategorySection';
import { ConfirmDeleteDialog } from './ConfirmDeleteDialog';
import {
  applyDraft,
  canManageCatalogue,
  draftChanged,
  draftFrom,
  isUncategorised,
  moveItem,
  type DraftCategory,
} from './logic';
import { NameDialog, type NameDialogKind, type NameDialogOutcome } from './NameDialog';
import {
  useCatalogue,
  useCreateCategory,
  useCreateCourse,
  useDeleteCategory,
  useRenameCategory,
  useSaveCategories,
} from './queries';
import { T } from './texts';

const LOAD_ERROR_TOAST = 'catalogue-load-error';

/** 422: the server's message (a duplicate name reads 'Введите другое название'); 403: a toast. */
function createFailure(error: unknown, noRights: string, fallback: string): NameDialogOutcome {
  const status = errorStatus(error);
  if (status === 422) return { close: false, fieldError: messageOr(error, T.duplicateName) };
  if (status === 403) {
    toastError(messageOr(error, noRights));
    return { close: true };
  }
  toastError(messageOr(error, fallback));
  return { close: false };
}

interface DialogState {
  kind: NameDialogKind;
  categoryId: number | null;
  opened: boolean;
  /** A new key for each opening gives a fresh form. */
  key: number;
}

function Catalogue({ userName }: { userName: string }) {
  const navigate = useNavigate();
  const catalogue = useCatalogue();
  const createCourse = useCreateCourse();
  const createCategory = useCreateCategory();
  const saveCategories = useSaveCategories();
  const renameCategory = useRenameCategory();
  const deleteCategory = useDeleteCategory();
  const [query, setQuery] = useState('');
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState<DraftCategory[]>([]);
  const [showErrors, setShowErrors] = useState(false);
  const [dialog, setDialog] = useState<DialogState>({ kind: 'course', categoryId: null, opened: false, key: 0 });
  const [deleteTarget, setDeleteTarget] = useState<{ id: number; name: string; opened: boolean }>({
    id: 0,
    name: '',
    opened: false,
  });
  const saving = saveCategories.isPending;

  const { isError, errorUpdatedAt } = catalogue;
  useEffect(() => {
    if (isError) toastError(T.loadError, LOAD_ERROR_TOAST);
  }, [isError, errorUpdatedAt]);

  const loaded = useMemo(() => catalogue.data ?? [], [catalogue.data]);
  const arranged = useMemo(() => (editing ? applyDraft(loaded, draft) : loaded), [editing, loaded, draft]);
  const shown = useMemo(
    () => (editing ? arranged : filterGroups(arranged, query, (course) => [course.name, course.description])),
    [editing, arranged, query],
  );
  // Leaving the page is leaving the mode too (docs/product.md §Catalogue): unsaved order and names are saved then.
  const pending = useRef({ editing, draft, loaded, save: saveCategories.mutateAsync });
  pending.current = { editing, draft, loaded, save: saveCategories.mutateAsync };
  useEffect(
    () => () => {
      const { editing: open, draft: left, loaded: before, save } = pending.current;
      if (!open || !draftChanged(left, before) || left.some((c) => c.name.trim() === '')) return;
      save(left).then(
        () => toastSuccess(T.saved),
        (error: unknown) => toastError(messageOr(error, T.saveError)),
      );
    },
    [],
  );
  const realCount = arranged.filter((c) => !isUncategorised(c)).length;
  const originalNames = useMemo(() => new Map(loaded.map((c) => [c.id, c.name])), [loaded]);
  const categoryOptions = useMemo(
    () => [
      ...loaded.filter((c) => !isUncategorised(c)).map(({ id, name }) => ({ id, name })),
      { id: UNCATEGORISED_ID, name: UNCATEGORISED_NAME },
    ],
    [loaded],
  );

  // ── edit mode ──
  const startEditing = () => {
    setDraft(draftFrom(loaded));
    setShowErrors(false);
    setQuery('');
    setEditing(true);
  };

  const finishEditing = async () => {
    if (saving) return;
    if (draft.some((c) => c.name.trim() === '')) {
      setShowErrors(true);
      return;
    }
    if (!draftChanged(draft, loaded)) {
      setEditing(false);
      return;
    }
    try {
      await saveCategories.mutateAsync(draft);
      toastSuccess(T.saved);
      setEditing(false);
    } catch (error) {
      toastError(messageOr(error, T.saveError));
    }
  };

  const toggleEditing = () => {
    if (editing) void finishEditing();
    else startEditing();
  };

  // Stable handlers, so that typing in one category does not redraw the others.
  const moveCategory = useCallback(
    (id: number, delta: -1 | 1) =>
      setDraft((list) =>
        moveItem(
          list,
          list.findIndex((c) => c.id === id),
          delta,
        ),
      ),
    [],
  );
  const setDraftName = useCallback(
    (id: number, name: string) => setDraft((list) => list.map((c) => (c.id === id ? { ...c, name } : c))),
    [],
  );
  const askDelete = useCallback((id: number, name: string) => setDeleteTarget({ id, name, opened: true }), []);

  const confirmDelete = async () => {
    const { id } = deleteTarget;
    try {
      await deleteCategory.mutateAsync(id);
      toastSuccess(T.categoryDeleted);
      setDraft((list) => list.filter((c) => c.id !== id));
    } catch (error) {
      toastError(messageOr(error, T.categoryDeleteError));
    } finally {
      setDeleteTarget((target) => ({ ...target, opened: false }));
    }
  };

  // ── inline rename (outside edit mode) ──
  const { mutate: rename } = renameCategory;
  const renameNames = useRef(originalNames);
  renameNames.current = originalNames;
  const onRename = useCallback(
    (id: number, name: string) =>
      rename(
        { id, name, previous: renameNames.current.get(id) ?? name },
        { onError: (error) => toastError(messageOr(error, T.renameError)) },
      ),
    [rename],
  );

  // ── creating ──
  const openDialog = useCallback(
    (kind: NameDialogKind, categoryId: number | null = null) =>
      setDialog((d) => ({ kind, categoryId, opened: true, key: d.key + 1 })),
    [],
  );
  const addCourseTo = useCallback((categoryId: number) => openDialog('course', categoryId), [openDialog]);
  const closeDialog = () => setDialog((d) => ({ ...d, opened: false }));

  const submitName = async (name: string, categoryId: number | null): Promise<NameDialogOutcome> => {
    if (dialog.kind === 'course') {
      try {
        const { id } = await createCourse.mutateAsync({ name, categoryId });
        toastSuccess(T.courseCreated);
        void navigate(`/management/constructor/${id}`);
        return { close: true };
      } catch (error) {
        return createFailure(error, T.courseNoRights, T.courseCreateError);
      }
    }
    try {
      const item = await createCategory.mutateAsync(name);
      toastSuccess(T.categoryCreated);
      if (editing) setDraft((list) => [...list, { id: item.id, name: item.name }]);
      return { close: true };
    } catch (error) {
      return createFailure(error, T.categoryNoRights, T.categoryCreateError);
    }
  };

  // ── rendering ──
  let content: ReactNode;
  if (catalogue.isPending) {
    content = <LoadingStatus text={T.loading} />;
  } else if (catalogue.isError) {
    content = <LoadErrorNotice title={T.loadError} retryLabel={T.retry} query={catalogue} />;
  } else if (arranged.length === 0) {
    content = (
      <Notice icon={<IconLayoutGrid size={24} aria-hidden="true" />} title={T.emptyCatalogue}>
        <Text c="dimmed" maw={440}>
          {T.emptyCatalogueHint}
        </Text>
      </Notice>
    );
  } else if (shown.length === 0) {
    content = <NothingFoundNotice query={query} resetLabel={T.resetSearch} onReset={() => setQuery('')} />;
  } else {
    let position = 0;
    content = (
      <Stack gap={editing ? 'md' : 36}>
        {shown.map((category) => {
          const index = isUncategorised(category) ? -1 : position++;
          return (
            <CategorySection
              key={category.id}
              id={category.id}
              name={category.name}
              items={category.items}
              originalName={originalNames.get(category.id) ?? category.name}
              editing={editing}
              first={index === 0}
              last={index === realCount - 1}
              invalid={showErrors && category.name.trim() === ''}
              onDraftName={setDraftName}
              onMove={moveCategory}
              onDelete={askDelete}
              onRename={onRename}
              onAddCourse={addCourseTo}
            />
          );
        })}
      </Stack>
    );
  }

  const ready = catalogue.isSuccess;

  return (
    <Stack gap="xl">
      <PageGreeting userName={userName} subtitle={T.subtitle} />

      <Paper withBorder p={{ base: 'sm', sm: 'md' }}>
        <Group gap="sm" justify="space-between">
          {editing ? null : (
            <SearchInput
              value={query}
              onChange={setQuery}
              placeholder={T.searchPlaceholder}
              flex="1 1 260px"
              maw={{ base: '100%', md: 380 }}
            />
          )}
          <Group gap="sm" flex={{ base: '1 1 100%', md: '0 1 auto' }} justify="flex-end" ml="auto">
            <Button
              variant={editing ? 'filled' : 'light'}
              leftSection={<IconAdjustmentsHorizontal size={18} aria-hidden="true" />}
              onClick={toggleEditing}
              aria-pressed={editing}
              disabled={!ready || saving}
              flex={{ base: '1 1 auto', xs: '0 0 auto' }}
            >
              {T.editCatalogue}
            </Button>
            {editing ? (
              <Button
                color="green"
                leftSection={<IconCheck size={18} aria-hidden="true" />}
                onClick={() => void finishEditing()}
                loading={saving}
                flex={{ base: '1 1 auto', xs: '0 0 auto' }}
              >
                {T.saveChanges}
              </Button>
            ) : null}
            <Button
              variant="default"
              leftSection={<IconFolderPlus size={18} aria-hidden="true" />}
              onClick={() => openDialog('category')}
              disabled={!ready}
              flex={{ base: '1 1 auto', xs: '0 0 auto' }}
            >
              {T.createCategory}
            </Button>
            <Button
              leftSection={<IconPlus size={18} aria-hidden="true" />}
              onClick={() => openDialog('course', UNCATEGORISED_ID)}
              disabled={!ready || editing}
              flex={{ base: '1 1 auto', xs: '0 0 auto' }}
            >
              {T.createCourse}
            </Button>
          </Group>
        </Group>
      </Paper>

      {editing ? (
        <Alert color="brand" variant="light" icon={<IconInfoCircle size={18} aria-hidden="true" />}>
          {T.editModeHint}
        </Alert>
      ) : null}

      {content}

      <NameDialog
        key={dialog.key}
        opened={dialog.opened}
        kind={dialog.kind}
        categories={categoryOptions}
        categoryId={dialog.categoryId}
        onClose={closeDialog}
        onSubmit={submitName}
      />
      <ConfirmDeleteDialog
        opened={deleteTarget.opened}
        name={deleteTarget.name}
        busy={deleteCategory.isPending}
        onConfirm={() => void confirmDelete()}
        onClose={() => setDeleteTarget((target) => ({ ...target, opened: false }))}
      />
    </Stack>
  );
}

/**
 * The admin course catalogue (docs/product.md §Catalogue): for users with 'catalogue.manage' (admins and
 * authors); everyone else sees 'Доступ запрещен' and nothing is requested.
 */
export default function CataloguePage() {
  const { user } = useSession();
  if (!canManageCatalogue(user?.permissions)) {
    return <AccessDeniedNotice title={T.accessDenied} hint={T.accessDeniedHint} />;
  }
  return <Catalogue userName={user?.name ?? ''} />;
}
