import type { AdminUserDetail, NamedRef } from '@lms/contract';
import { Alert, Button, Group, SimpleGrid, Skeleton, Stack, TextInput } from '@mantine/core';
import { IconCloudDown, IconKey } from '@tabler/icons-react';
import { useState, type FormEvent } from 'react';
import { successMessage } from '../../lib/answer';
import { loginSuffix, usePublicConfig } from '../../shared/config';
import { useSession } from '../../shared/session';
import { toastError, toastSuccess } from '../../shared/toast';
import { CHIPS_DEFAULT, CourseMultiSelect } from './CourseMultiSelect';
import { PersonFields, RoleAndDepartment } from './fields';
import { DeleteButton, FormModal, ModalActions, type ModalFormProps } from './forms';
import {
  courseDiff,
  displayName,
  editLogin,
  errorText,
  loginLocalPart,
  validateEditUser,
  type EditUserDraft,
  type EditUserField,
} from './logic';
import {
  useDeleteUser,
  useResetPassword,
  useUpdateUser,
  useUserCourses,
  useUserDetail,
  type AdminUser,
} from './queries';
import { T } from './texts';
import { ConfirmDialog, ErrorState, useErrorToast } from './ui';

interface EditUserModalProps {
  opened: boolean;
  /** The row that was clicked; kept while the modal closes. */
  user: AdminUser | null;
  onClose: () => void;
}

/** 'Edit student' (docs/product.md §Settings): fields, courses, password reset and deleting. */
export function EditUserModal({ opened, user, onClose }: EditUserModalProps) {
  return (
    <FormModal opened={opened} onClose={onClose} title={T.editUserTitle}>
      {(form) => (user ? <EditUserLoader key={user.id} user={user} {...form} /> : null)}
    </FormModal>
  );
}

interface LoaderProps extends ModalFormProps {
  user: AdminUser;
}

/** GET /api/admin/users/{id} and /courses, then the form. */
function EditUserLoader({ user, onClose, busy, setBusy }: LoaderProps) {
  const detail = useUserDetail(user.id);
  const courses = useUserCourses(user.id);
  const config = usePublicConfig();
  useErrorToast(detail, T.loadError, 'settings-user-error');
  useErrorToast(courses, T.userCoursesLoadError, 'settings-user-courses-error');

  // the form starts from a fresh answer (not a cached one) and then keeps what is typed
  const [ready, setReady] = useState(false);
  const settled = !detail.isFetching && !courses.isFetching && detail.isSuccess && !config.isPending;
  if (settled && !ready) setReady(true);

  if (detail.isError && !ready) return <ErrorState onRetry={() => void detail.refetch()} />;
  if (!ready || !detail.data) {
    return (
      <Stack gap="md" aria-busy="true" data-testid="edit-user-loading">
        <SimpleGrid cols={{ base: 1, xs: 2 }}>
          {[0, 1, 2, 3, 4, 5].map((n) => (
            <Skeleton key={n} h={58} radius="md" />
          ))}
        </SimpleGrid>
        <Skeleton h={58} radius="md" />
      </Stack>
    );
  }
  // without the user's course list the detail's own list is used
  const assigned = courses.data ?? detail.data.courses;
  return (
    <EditUserForm
      user={detail.data}
      assigned={assigned}
      suffix={loginSuffix(config.data)}
      onClose={onClose}
      busy={busy}
      setBusy={setBusy}
    />
  );
}

interface FormProps extends ModalFormProps {
  user: AdminUserDetail;
  assigned: NamedRef[];
  suffix: string;
}

function EditUserForm({ user, assigned, suffix, onClose, busy, setBusy }: FormProps) {
  const updateUser = useUpdateUser();
  const deleteUser = useDeleteUser();
  const resetPassword = useResetPassword();
  const me = useSession().user;
  const [draft, setDraft] = useState<EditUserDraft>(() => ({
    first_name: user.first_name,
    last_name: user.last_name,
    local: loginLocalPart(user.login || user.email, suffix),
    position: user.position ?? '',
    roleId: String(user.roles.id),
    departmentId: user.department ? String(user.department.id) : null,
  }));
  const [manager, setManager] = useState(user.manager?.email ?? '');
  const [initialCourses] = useState(() => assigned.map((c) => c.id));
  const [courseIds, setCourseIds] = useState<number[]>(initialCourses);
  const [marked, setMarked] = useState<readonly EditUserField[]>([]);
  const [confirm, setConfirm] = useState<'delete' | 'reset' | null>(null);
  const name = user.name || displayName(user.first_name, user.last_name);
  // Kept by the directory sync: only the role, the courses and the password are this form's.
  const synced = user.from_directory;

  const set = <K extends keyof EditUserDraft>(field: K, value: EditUserDraft[K]) => {
    setDraft((d) => ({ ...d, [field]: value }));
    const mark = field === 'roleId' ? 'role' : field === 'departmentId' ? 'department' : field;
    setMarked((old) => old.filter((f) => f !== mark));
  };
  const hasError = (field: EditUserField) => marked.includes(field);

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    const found = validateEditUser(draft, suffix);
    setMarked(found?.fields ?? []);
    if (found) {
      toastError(found.message);
      return;
    }
    setBusy(true);
    try {
      const data = await updateUser.mutateAsync({
        id: user.id,
        body: {
          first_name: draft.first_name.trim(),
          last_name: draft.last_name.trim(),
          login: editLogin(draft.local, suffix),
          department_id: Number(draft.departmentId),
          role_id: Number(draft.roleId),
          position: draft.position.trim(),
          manager_email: manager.trim(),
        },
        ...courseDiff(initialCourses, courseIds),
      });
      toastSuccess(successMessage(data, T.userUpdated(displayName(draft.first_name, draft.last_name))));
      onClose();
    } catch (error) {
      toastError(T.updateUserError(errorText(error)));
    } finally {
      setBusy(false);
    }
  };

  const askDelete = () => {
    // one's own account is never deleted (docs/product.md §Settings); the server refuses it as well
    if (me?.id === user.id) {
      toastError(T.selfDelete);
      return;
    }
    setConfirm('delete');
  };

  const onDelete = async () => {
    setBusy(true);
    try {
      const data = await deleteUser.mutateAsync(user.id);
      toastSuccess(successMessage(data, T.userDeleted(name)));
      setConfirm(null);
      onClose();
    } catch (error) {
      toastError(T.deleteUserError(errorText(error)));
      setConfirm(null);
    } finally {
      setBusy(false);
    }
  };

  const onReset = async () => {
    setBusy(true);
    try {
      const data = await resetPassword.mutateAsync(user.id);
      toastSuccess(successMessage(data, T.passwordReset));
    } catch (error) {
      toastError(T.resetPasswordError(errorText(error)));
    } finally {
      setConfirm(null);
      setBusy(false);
    }
  };

  // what every field of the form shares: its change, its marks, and no typing while a request runs
  const fieldState = { onChange: set, hasError, disabled: busy };

  return (
    <>
      <form onSubmit={(event) => void onSubmit(event)} noValidate aria-label={T.editUserTitle}>
        <Stack gap="md">
          <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="md" verticalSpacing="sm">
            <PersonFields value={draft} {...fieldState} suffix={suffix} allowFullAddress synced={synced} />
            <RoleAndDepartment
              roleId={draft.roleId}
              departmentId={draft.departmentId}
              {...fieldState}
              departmentLocked={synced}
            />
          </SimpleGrid>
          <TextInput
            label={T.manager}
            placeholder={T.managerPlaceholder}
            description={synced ? undefined : T.managerHint}
            type="email"
            value={manager}
            onChange={(e) => setManager(e.currentTarget.value)}
            disabled={busy || synced}
            autoComplete="off"
          />
          {synced ? (
            <Alert variant="light" color="blue" icon={<IconCloudDown size={18} aria-hidden="true" />}>
              {T.fromDirectory}
            </Alert>
          ) : null}

          <CourseMultiSelect
            value={courseIds}
            onChange={setCourseIds}
            visible={CHIPS_DEFAULT}
            known={assigned}
            disabled={busy}
          />

          <ModalActions
            start={
              <Group gap="xs">
                <Button
                  variant="default"
                  leftSection={<IconKey size={16} aria-hidden="true" />}
                  onClick={() => setConfirm('reset')}
                  disabled={busy}
                >
                  {T.resetPassword}
                </Button>
                {synced ? null : <DeleteButton onClick={askDelete} disabled={busy} />}
              </Group>
            }
            submitLabel={T.save}
            submitting={busy && confirm === null}
            busy={busy}
            onCancel={onClose}
          />
        </Stack>
      </form>

      <ConfirmDialog
        opened={confirm === 'delete'}
        title={T.confirmDeleteUserTitle}
        message={T.confirmDeleteUser(name)}
        confirmLabel={T.delete}
        danger
        busy={busy}
        onConfirm={() => void onDelete()}
        onClose={() => setConfirm(null)}
      />
      <ConfirmDialog
        opened={confirm === 'reset'}
        title={T.confirmResetTitle}
        message={T.confirmReset(name)}
        confirmLabel={T.confirmResetButton}
        busy={busy}
        onConfirm={() => void onReset()}
        onClose={() => setConfirm(null)}
      />
    </>
  );
}
