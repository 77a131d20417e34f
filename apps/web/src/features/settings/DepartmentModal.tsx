import { Grid, TextInput } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
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
import { EntityForm, FormModal, FormSkeleton, useAssignedCourses, type ModalFormProps } from './forms';
import { parseSortOrder } from './logic';
import { T } from './texts';

interface DepartmentModalProps {
  opened: boolean;
  /** null: a new department. */
  department: Department | null;
  onClose: () => void;
}

/** Add and edit department (spec 03 §2.2, §5). */
export function DepartmentModal({ opened, department, onClose }: DepartmentModalProps) {
  return (
    <FormModal opened={opened} onClose={onClose} title={department ? T.editDepartmentTitle : T.addDepartmentTitle}>
      {(form) =>
        department ? (
          <EditDepartmentLoader key={department.id} department={department} {...form} />
        ) : (
          <DepartmentForm department={null} courseIds={[]} {...form} />
        )
      }
    </FormModal>
  );
}

interface LoaderProps extends ModalFormProps {
  department: Department;
}

/** GET /api/admin/departments/{id}/courses; when it fails the list's course_ids are used. */
function EditDepartmentLoader({ department, ...rest }: LoaderProps) {
  const query = useDepartmentCourses(department.id, { refetchOnMount: 'always' });
  const courses = useAssignedCourses(query, department.course_ids);
  if (!courses) return <FormSkeleton heights={[58, 58]} />;
  return <DepartmentForm department={department} courseIds={courses.courseIds} known={courses.known} {...rest} />;
}

interface FormProps extends ModalFormProps {
  department: Department | null;
  courseIds: number[];
  known?: { id: number; name: string }[] | undefined;
}

function DepartmentForm({ department, courseIds: initialCourses, known, onClose, busy, setBusy }: FormProps) {
  const paths = usePaths();
  const queryClient = useQueryClient();
  const [name, setName] = useState(department?.name ?? '');
  const [sortOrder, setSortOrder] = useState(department?.sort_order == null ? '' : String(department.sort_order));
  const [courseIds, setCourseIds] = useState<number[]>(initialCourses);
  const [nameError, setNameError] = useState(false);
  const [sortError, setSortError] = useState<string | null>(null);
  const isNew = department === null;

  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: settingsKeys.departments }),
      queryClient.invalidateQueries({ queryKey: settingsKeys.users }),
    ]);

  const onSubmit = async () => {
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

  const onDelete = async (id: number) => {
    setBusy(true);
    try {
      const response = await deleteDepartment(paths, id);
      toastSuccess(successMessage(response, T.departmentDeleted));
      onClose();
    } catch (error) {
      toastError(messageOr(error, T.deleteDepartmentError));
    } finally {
      setBusy(false);
      void refresh();
    }
  };

  return (
    <EntityForm
      label={isNew ? T.addDepartmentTitle : T.editDepartmentTitle}
      submitLabel={isNew ? T.addSubmit : T.save}
      busy={busy}
      onSubmit={onSubmit}
      onCancel={onClose}
      deletion={
        department
          ? {
              title: T.confirmDeleteDepartmentTitle,
              message: T.confirmDeleteDepartment(department.name),
              onConfirm: () => onDelete(department.id),
            }
          : undefined
      }
    >
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
    </EntityForm>
  );
}
