import { Button, Divider, Grid, Group, Skeleton, Stack, TextInput } from '@mantine/core';
import { IconTrash } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { toastError, toastSuccess } from '../../shared/toast';
import {
  deleteDepartment,
  messageOr,
  saveDepartment,
  settingsKeys,
  successMessage,
  useDepartmentCourses,
  usePaths,
  type Department,
} from './api';
import { CHIPS_ADD_FORM, CHIPS_DEFAULT, CourseMultiSelect } from './CourseMultiSelect';
import { parseSortOrder } from './logic';
import { T } from './texts';
import { ConfirmDialog, SettingsModal } from './ui';

interface DepartmentModalProps {
  opened: boolean;
  /** null: a new department. */
  department: Department | null;
  onClose: () => void;
}

/** Add and edit department (spec 03 §2.2, §5). */
export function DepartmentModal({ opened, department, onClose }: DepartmentModalProps) {
  const [busy, setBusy] = useState(false);
  return (
    <SettingsModal
      opened={opened}
      onClose={busy ? () => {} : onClose}
      title={department ? T.editDepartmentTitle : T.addDepartmentTitle}
    >
      {department ? (
        <EditDepartmentLoader
          key={department.id}
          department={department}
          onClose={onClose}
          busy={busy}
          setBusy={setBusy}
        />
      ) : (
        <DepartmentForm department={null} courseIds={[]} onClose={onClose} busy={busy} setBusy={setBusy} />
      )}
    </SettingsModal>
  );
}

interface LoaderProps {
  department: Department;
  onClose: () => void;
  busy: boolean;
  setBusy: (busy: boolean) => void;
}

/** GET /api/admin/departments/{id}/courses; when it fails the list's course_ids are used. */
function EditDepartmentLoader({ department, ...rest }: LoaderProps) {
  const courses = useDepartmentCourses(department.id, { refetchOnMount: 'always' });
  const [ready, setReady] = useState(false);
  if (!ready && !courses.isFetching && !courses.isPending) setReady(true);
  if (!ready) {
    return (
      <Stack gap="md" aria-busy="true">
        <Skeleton h={58} radius="md" />
        <Skeleton h={58} radius="md" />
      </Stack>
    );
  }
  const courseIds = courses.data ? courses.data.map((c) => c.id) : department.course_ids;
  return <DepartmentForm department={department} courseIds={courseIds} known={courses.data} {...rest} />;
}

interface FormProps {
  department: Department | null;
  courseIds: number[];
  known?: { id: number; name: string }[] | undefined;
  onClose: () => void;
  busy: boolean;
  setBusy: (busy: boolean) => void;
}

function DepartmentForm({ department, courseIds: initialCourses, known, onClose, busy, setBusy }: FormProps) {
  const paths = usePaths();
  const queryClient = useQueryClient();
  const [name, setName] = useState(department?.name ?? '');
  const [sortOrder, setSortOrder] = useState(department?.sort_order == null ? '' : String(department.sort_order));
  const [courseIds, setCourseIds] = useState<number[]>(initialCourses);
  const [nameError, setNameError] = useState(false);
  const [sortError, setSortError] = useState<string | null>(null);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const isNew = department === null;

  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: settingsKeys.departments }),
      queryClient.invalidateQueries({ queryKey: settingsKeys.users }),
    ]);

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    if (name.trim() === '') {
      setNameError(true);
      toastError(T.needDepartmentName);
      return;
    }
    const sort = parseSortOrder(sortOrder);
    if ('error' in sort) {
      setSortError(sort.error);
      toastError(sort.error);
      return;
    }
    setBusy(true);
    try {
      const response = await saveDepartment(paths, department?.id ?? null, {
        name: name.trim(),
        sort_order: sort.value,
        course_ids: courseIds,
      });
      toastSuccess(successMessage(response, isNew ? T.departmentAdded : T.departmentUpdated));
      onClose();
    } catch (error) {
      toastError(messageOr(error, isNew ? T.addDepartmentError : T.updateDepartmentError));
    } finally {
      setBusy(false);
      void refresh();
    }
  };

  const onDelete = async () => {
    if (!department) return;
    setBusy(true);
    try {
      const response = await deleteDepartment(paths, department.id);
      toastSuccess(successMessage(response, T.departmentDeleted));
      onClose();
    } catch (error) {
      toastError(messageOr(error, T.deleteDepartmentError));
    } finally {
      setConfirmDelete(false);
      setBusy(false);
      void refresh();
    }
  };

  return (
    <>
      <form
        onSubmit={(event) => void onSubmit(event)}
        noValidate
        aria-label={isNew ? T.addDepartmentTitle : T.editDepartmentTitle}
      >
        <Stack gap="md">
          <Grid gap="md">
            <Grid.Col span={{ base: 12, xs: 8 }}>
              <TextInput
                label={T.departmentName}
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
            </Grid.Col>
            <Grid.Col span={{ base: 12, xs: 4 }}>
              <TextInput
                label={T.sortOrder}
                value={sortOrder}
                onChange={(e) => {
                  setSortOrder(e.currentTarget.value);
                  setSortError(null);
                }}
                error={sortError}
                inputMode="numeric"
                placeholder="0"
                disabled={busy}
                autoComplete="off"
              />
            </Grid.Col>
          </Grid>
          <CourseMultiSelect
            value={courseIds}
            onChange={setCourseIds}
            visible={isNew ? CHIPS_ADD_FORM : CHIPS_DEFAULT}
            known={known}
            disabled={busy}
          />

          <Divider />
          <Group justify="space-between" gap="sm">
            {isNew ? (
              <span />
            ) : (
              <Button
                variant="light"
                color="red"
                leftSection={<IconTrash size={16} aria-hidden="true" />}
                onClick={() => setConfirmDelete(true)}
                disabled={busy}
              >
                {T.delete}
              </Button>
            )}
            <Group gap="xs" ml="auto">
              <Button variant="default" onClick={onClose} disabled={busy}>
                {T.cancel}
              </Button>
              <Button type="submit" loading={busy && !confirmDelete}>
                {isNew ? T.addSubmit : T.save}
              </Button>
            </Group>
          </Group>
        </Stack>
      </form>
      {department ? (
        <ConfirmDialog
          opened={confirmDelete}
          title={T.confirmDeleteDepartmentTitle}
          message={T.confirmDeleteDepartment(department.name)}
          confirmLabel={T.delete}
          danger
          busy={busy}
          onConfirm={() => void onDelete()}
          onClose={() => setConfirmDelete(false)}
        />
      ) : null}
    </>
  );
}
