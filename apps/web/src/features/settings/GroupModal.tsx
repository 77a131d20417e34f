import { TextInput } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
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
import { EntityForm, FormModal, FormSkeleton, useAssignedCourses, type ModalFormProps } from './forms';
import { MemberPicker, type MemberChoice } from './MemberPicker';
import { T } from './texts';
import { useErrorToast } from './ui';

interface GroupModalProps {
  opened: boolean;
  /** null: a new group. */
  group: StudyGroup | null;
  onClose: () => void;
}

/** Add and edit study group (spec 03 §2.2, §5). */
export function GroupModal({ opened, group, onClose }: GroupModalProps) {
  return (
    <FormModal opened={opened} onClose={onClose} title={group ? T.editGroupTitle : T.addGroupTitle}>
      {(form) =>
        group ? (
          <EditGroupLoader key={group.id} group={group} {...form} />
        ) : (
          <GroupForm group={null} courseIds={[]} {...form} />
        )
      }
    </FormModal>
  );
}

interface LoaderProps extends ModalFormProps {
  group: StudyGroup;
}

/** GET /api/study-groups/{id}/courses; when it fails the list's course_ids are used. */
function EditGroupLoader({ group, ...rest }: LoaderProps) {
  const query = useGroupCourses(group.id, { refetchOnMount: 'always' });
  const courses = useAssignedCourses(query, group.course_ids);
  if (!courses) return <FormSkeleton heights={[58, 200]} />;
  return <GroupForm group={group} courseIds={courses.courseIds} known={courses.known} {...rest} />;
}

interface FormProps extends ModalFormProps {
  group: StudyGroup | null;
  courseIds: number[];
  known?: { id: number; name: string }[] | undefined;
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
  const isNew = group === null;

  // every user, plus current members the list does not hold (so none is dropped silently)
  const choices = useMemo<MemberChoice[]>(() => {
    const list: MemberChoice[] = (users.data ?? []).map((u) => ({ id: u.id, name: u.name, email: u.email }));
    const ids = new Set(list.map((u) => u.id));
    for (const member of group?.users ?? []) if (!ids.has(member.id)) list.push(member);
    return list;
  }, [users.data, group]);

  const refresh = () => queryClient.invalidateQueries({ queryKey: settingsKeys.groups });

  const onSubmit = async () => {
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

  const onDelete = async (id: number) => {
    setBusy(true);
    try {
      await deleteGroup(paths, id); // 204, no body
      toastSuccess(T.groupDeleted);
      onClose();
    } catch (error) {
      toastError(messageOr(error, T.deleteGroupError));
    } finally {
      setBusy(false);
      void refresh();
    }
  };

  return (
    <EntityForm
      label={isNew ? T.addGroupTitle : T.editGroupTitle}
      submitLabel={isNew ? T.addSubmit : T.save}
      busy={busy}
      onSubmit={onSubmit}
      onCancel={onClose}
      deletion={
        group
          ? {
              title: T.confirmDeleteGroupTitle,
              message: T.confirmDeleteGroup(group.name),
              onConfirm: () => onDelete(group.id),
            }
          : undefined
      }
    >
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
    </EntityForm>
  );
}
