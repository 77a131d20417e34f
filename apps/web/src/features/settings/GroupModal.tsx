import { Button, Divider, Group, Skeleton, Stack, TextInput } from '@mantine/core';
import { IconTrash } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useMemo, useState, type FormEvent } from 'react';
import { toastError, toastSuccess } from '../../shared/toast';
import {
  deleteGroup,
  messageOr,
  saveGroup,
  settingsKeys,
  successMessage,
  useGroupCourses,
  usePaths,
  useUsers,
  type StudyGroup,
} from './api';
import { CHIPS_ADD_FORM, CHIPS_DEFAULT, CourseMultiSelect } from './CourseMultiSelect';
import { MemberPicker, type MemberChoice } from './MemberPicker';
import { T } from './texts';
import { ConfirmDialog, SettingsModal, useErrorToast } from './ui';

interface GroupModalProps {
  opened: boolean;
  /** null: a new group. */
  group: StudyGroup | null;
  onClose: () => void;
}

/** Add and edit study group (spec 03 §2.2, §5). */
export function GroupModal({ opened, group, onClose }: GroupModalProps) {
  const [busy, setBusy] = useState(false);
  return (
    <SettingsModal
      opened={opened}
      onClose={busy ? () => {} : onClose}
      title={group ? T.editGroupTitle : T.addGroupTitle}
    >
      {group ? (
        <EditGroupLoader key={group.id} group={group} onClose={onClose} busy={busy} setBusy={setBusy} />
      ) : (
        <GroupForm group={null} courseIds={[]} onClose={onClose} busy={busy} setBusy={setBusy} />
      )}
    </SettingsModal>
  );
}

interface LoaderProps {
  group: StudyGroup;
  onClose: () => void;
  busy: boolean;
  setBusy: (busy: boolean) => void;
}

/** GET /api/study-groups/{id}/courses; when it fails the list's course_ids are used. */
function EditGroupLoader({ group, ...rest }: LoaderProps) {
  const courses = useGroupCourses(group.id, { refetchOnMount: 'always' });
  const [ready, setReady] = useState(false);
  if (!ready && !courses.isFetching && !courses.isPending) setReady(true);
  if (!ready) {
    return (
      <Stack gap="md" aria-busy="true">
        <Skeleton h={58} radius="md" />
        <Skeleton h={200} radius="md" />
      </Stack>
    );
  }
  const courseIds = courses.data ? courses.data.map((c) => c.id) : group.course_ids;
  return <GroupForm group={group} courseIds={courseIds} known={courses.data} {...rest} />;
}

interface FormProps {
  group: StudyGroup | null;
  courseIds: number[];
  known?: { id: number; name: string }[] | undefined;
  onClose: () => void;
  busy: boolean;
  setBusy: (busy: boolean) => void;
}

function GroupForm({ group, courseIds: initialCourses, known, onClose, busy, setBusy }: FormProps) {
  const paths = usePaths();
  const queryClient = useQueryClient();
  const users = useUsers();
  useErrorToast(users, T.dropdownLoadError, 'settings-members-error');
  const [name, setName] = useState(group?.name ?? '');
  const [memberIds, setMemberIds] = useState<number[]>(() => group?.users.map((u) => u.id) ?? []);
  const [courseIds, setCourseIds] = useState<number[]>(initialCourses);
  const [nameError, setNameError] = useState(false);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const isNew = group === null;

  // every user, plus current members the list does not hold (so none is dropped silently)
  const choices = useMemo<MemberChoice[]>(() => {
    const list: MemberChoice[] = (users.data ?? []).map((u) => ({ id: u.id, name: u.name, email: u.email }));
    const ids = new Set(list.map((u) => u.id));
    for (const member of group?.users ?? []) if (!ids.has(member.id)) list.push(member);
    return list;
  }, [users.data, group]);

  const refresh = () => queryClient.invalidateQueries({ queryKey: settingsKeys.groups });

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    if (name.trim() === '') {
      setNameError(true);
      toastError(T.needGroupName);
      return;
    }
    setBusy(true);
    try {
      const response = await saveGroup(paths, group?.id ?? null, {
        name: name.trim(),
        user_ids: memberIds,
        course_ids: courseIds,
      });
      toastSuccess(successMessage(response, isNew ? T.groupAdded : T.groupUpdated));
      onClose();
    } catch (error) {
      toastError(messageOr(error, isNew ? T.addGroupError : T.updateGroupError));
    } finally {
      setBusy(false);
      void refresh();
    }
  };

  const onDelete = async () => {
    if (!group) return;
    setBusy(true);
    try {
      await deleteGroup(paths, group.id); // 204, no body
      toastSuccess(T.groupDeleted);
      onClose();
    } catch (error) {
      toastError(messageOr(error, T.deleteGroupError));
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
        aria-label={isNew ? T.addGroupTitle : T.editGroupTitle}
      >
        <Stack gap="md">
          <TextInput
            label={T.groupName}
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
          <MemberPicker
            users={choices}
            value={memberIds}
            onChange={setMemberIds}
            loading={users.isPending}
            disabled={busy}
          />
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
      {group ? (
        <ConfirmDialog
          opened={confirmDelete}
          title={T.confirmDeleteGroupTitle}
          message={T.confirmDeleteGroup(group.name)}
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
