import { UNCATEGORISED_ID, UNCATEGORISED_NAME, type CatalogueCategory } from '@lms/contract';
import { Alert, Button, Group, Paper, Stack, Text } from '@mantine/core';
import {
  IconAdjustmentsHorizontal,
  IconCheck,
  IconFolderPlus,
  IconInfoCircle,
  IconLayoutGrid,
  IconPlus,
} from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { filterGroups } from '../../lib/search';
import { AccessDeniedNotice } from '../../shared/AccessDeniedNotice';
import { LoadErrorNotice, LoadingStatus, Notice, NothingFoundNotice } from '../../shared/ListStates';
import { PageGreeting } from '../../shared/PageGreeting';
import { SearchInput } from '../../shared/SearchInput';
import { toastError, toastSuccess } from '../../shared/toast';
import { useSession } from '../auth/session';
import {
  catalogueQueryKey,
  createCategory,
  createCourse,
  deleteCategory,
  renameCategory,
  saveCategories,
  useCatalogue,
} from './api';
import { CategorySection } from './CategorySection';
import { ConfirmDeleteDialog } from './ConfirmDeleteDialog';
import {
  applyDraft,
  canManageCatalogue,
  draftChanged,
  draftFrom,
  isUncategorised,
  messageOr,
  moveItem,
  statusOf,
  updatePayload,
  withCategoryName,
  type DraftCategory,
} from './logic';
import { NameDialog, type NameDialogKind, type NameDialogOutcome } from './NameDialog';
import { T } from './texts';

const LOAD_ERROR_TOAST = 'catalogue-load-error';

/** 422: the server's message (a duplicate name reads 'Введите другое название'); 403: a toast. */
function createFailure(error: unknown, noRights: string, fallback: string): NameDialogOutcome {
  const status = statusOf(error);
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
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const catalogue = useCatalogue(true);
  const [query, setQuery] = useState('');
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState<DraftCategory[]>([]);
  const [showErrors, setShowErrors] = useState(false);
  const [saving, setSaving] = useState(false);
  const [dialog, setDialog] = useState<DialogState>({ kind: 'course', categoryId: null, opened: false, key: 0 });
  const [deleteTarget, setDeleteTarget] = useState<{ id: number; name: string; opened: boolean }>({
    id: 0,
    name: '',
    opened: false,
  });
  const [deleting, setDeleting] = useState(false);

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
  // Leaving the page is leaving the mode too (spec 03 §2.3): unsaved order and names are saved then.
  const pending = useRef({ editing, draft, loaded });
  pending.current = { editing, draft, loaded };
  useEffect(
    () => () => {
      const { editing: open, draft: left, loaded: before } = pending.current;
      if (!open || !draftChanged(left, before) || left.some((c) => c.name.trim() === '')) return;
      saveCategories(updatePayload(left)).then(
        () => {
          toastSuccess(T.saved);
          void queryClient.invalidateQueries({ queryKey: catalogueQueryKey });
        },
        (error: unknown) => toastError(messageOr(error, T.saveError)),
      );
    },
    [queryClient],
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

  const setCatalogue = (update: (categories: CatalogueCategory[]) => CatalogueCategory[]) =>
    queryClient.setQueryData<CatalogueCategory[]>(catalogueQueryKey, (old) => (old ? update(old) : old));
  const refresh = () => queryClient.invalidateQueries({ queryKey: catalogueQueryKey });

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
    setSaving(true);
    try {
      await saveCategories(updatePayload(draft));
      toastSuccess(T.saved);
      setCatalogue((old) => applyDraft(old, draft).map((c) => ({ ...c, name: c.name.trim() })));
      setEditing(false);
      void refresh();
    } catch (error) {
      toastError(messageOr(error, T.saveError));
    } finally {
      setSaving(false);
    }
  };

  const toggleEditing = () => {
    if (editing) void finishEditing();
    else startEditing();
  };

  const moveCategory = (id: number, delta: -1 | 1) =>
    setDraft((list) =>
      moveItem(
        list,
        list.findIndex((c) => c.id === id),
        delta,
      ),
    );
  const setDraftName = (id: number, name: string) =>
    setDraft((list) => list.map((c) => (c.id === id ? { ...c, name } : c)));

  const confirmDelete = async () => {
    const { id } = deleteTarget;
    setDeleting(true);
    try {
      await deleteCategory(id);
      toastSuccess(T.categoryDeleted);
      setDraft((list) => list.filter((c) => c.id !== id));
      setCatalogue((old) => old.filter((c) => c.id !== id));
      void refresh();
    } catch (error) {
      toastError(messageOr(error, T.categoryDeleteError));
    } finally {
      setDeleting(false);
      setDeleteTarget((target) => ({ ...target, opened: false }));
    }
  };

  // ── inline rename (outside edit mode) ──
  const rename = async (id: number, name: string) => {
    const previous = originalNames.get(id) ?? name;
    setCatalogue((old) => withCategoryName(old, id, name));
    try {
      await renameCategory(id, name);
      void refresh();
    } catch (error) {
      setCatalogue((old) => withCategoryName(old, id, previous));
      toastError(messageOr(error, T.renameError));
    }
  };

  // ── creating ──
  const openDialog = (kind: NameDialogKind, categoryId: number | null = null) =>
    setDialog((d) => ({ kind, categoryId, opened: true, key: d.key + 1 }));
  const closeDialog = () => setDialog((d) => ({ ...d, opened: false }));

  const submitName = async (name: string, categoryId: number | null): Promise<NameDialogOutcome> => {
    if (dialog.kind === 'course') {
      try {
        const { id } = await createCourse(name, categoryId);
        toastSuccess(T.courseCreated);
        void refresh();
        navigate(`/management/constructor/${id}`);
        return { close: true };
      } catch (error) {
        return createFailure(error, T.courseNoRights, T.courseCreateError);
      }
    }
    try {
      const { item } = await createCategory(name);
      toastSuccess(T.categoryCreated);
      if (item && editing) setDraft((list) => [...list, { id: item.id, name: item.name }]);
      if (item) {
        setCatalogue((old) => {
          const real = old.filter((c) => !isUncategorised(c));
          return [...real, { ...item, items: [] }, ...old.filter(isUncategorised)];
        });
      }
      void refresh();
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
    content = (
      <LoadErrorNotice
        title={T.loadError}
        retryLabel={T.retry}
        onRetry={() => void catalogue.refetch()}
        retrying={catalogue.isFetching}
      />
    );
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
              category={category}
              originalName={originalNames.get(category.id) ?? category.name}
              editing={editing}
              first={index === 0}
              last={index === realCount - 1}
              invalid={showErrors && category.name.trim() === ''}
              onDraftName={(name) => setDraftName(category.id, name)}
              onMove={(delta) => moveCategory(category.id, delta)}
              onDelete={() => setDeleteTarget({ id: category.id, name: category.name, opened: true })}
              onRename={(name) => void rename(category.id, name)}
              onAddCourse={() => openDialog('course', category.id)}
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
              clearLabel={T.clearSearch}
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
        busy={deleting}
        onConfirm={() => void confirmDelete()}
        onClose={() => setDeleteTarget((target) => ({ ...target, opened: false }))}
      />
    </Stack>
  );
}

/**
 * The admin course catalogue (spec 03 §2.3): for users with 'catalogue.manage' (admins and
 * authors); everyone else sees 'Доступ запрещен' and nothing is requested.
 */
export default function CataloguePage() {
  const { user } = useSession();
  if (!canManageCatalogue(user?.permissions)) {
    return <AccessDeniedNotice title={T.accessDenied} hint={T.accessDeniedHint} />;
  }
  return <Catalogue userName={user?.name ?? ''} />;
}
