import { ActionIcon, Box, Button, Group, Paper, SimpleGrid, Stack, Text, Tooltip } from '@mantine/core';
import { IconInfoCircle, IconTrash, IconUserPlus } from '@tabler/icons-react';
import { useLayoutEffect, useRef, useState, type FormEvent } from 'react';
import { successMessage } from '../../lib/answer';
import { loginSuffix, usePublicConfig } from '../../shared/config';
import { ContentLoader } from '../../shared/FullPageLoader';
import { toastError, toastSuccess } from '../../shared/toast';
import { CHIPS_ADD_FORM, CourseMultiSelect } from './CourseMultiSelect';
import { PersonFields, RoleAndDepartment } from './fields';
import { FormModal, ModalActions, type ModalFormProps } from './forms';
import {
  composeLogin,
  displayName,
  errorText,
  isMarked,
  unmark,
  validateStudents,
  type FieldMark,
  type StudentDraft,
} from './logic';
import { useCreateUsers } from './queries';
import { T } from './texts';

interface AddUsersModalProps {
  opened: boolean;
  onClose: () => void;
}

/** 'Add student' (docs/product.md §Settings): several students in one form, shared role, department and courses. */
export function AddUsersModal({ opened, onClose }: AddUsersModalProps) {
  // the modal unmounts its content when closed, so every opening starts with a fresh form
  return (
    <FormModal opened={opened} onClose={onClose} title={T.addUsersTitle}>
      {(form) => <AddUsersForm {...form} />}
    </FormModal>
  );
}

let nextKey = 0;
const emptyStudent = (): StudentDraft => ({
  key: `student-${++nextKey}`,
  first_name: '',
  last_name: '',
  local: '',
  position: '',
});

function AddUsersForm({ onClose, busy, setBusy }: ModalFormProps) {
  const createUsers = useCreateUsers<StudentDraft>();
  const config = usePublicConfig();
  const suffix = loginSuffix(config.data);
  const [roleId, setRoleId] = useState<string | null>(null);
  const [departmentId, setDepartmentId] = useState<string | null>(null);
  const [students, setStudents] = useState<StudentDraft[]>(() => [emptyStudent()]);
  const [courseIds, setCourseIds] = useState<number[]>([]);
  const [marks, setMarks] = useState<FieldMark[]>([]);
  const lastBlock = useRef<HTMLDivElement>(null);
  const focusNewBlock = useRef(false);

  // In the commit that adds the block, so the focus cannot land later, in the middle of typing elsewhere.
  useLayoutEffect(() => {
    if (!focusNewBlock.current) return;
    focusNewBlock.current = false;
    lastBlock.current?.querySelector('input')?.focus();
  }, [students.length]);

  const update = (index: number, key: string, field: keyof Omit<StudentDraft, 'key'>, value: string) => {
    setStudents((list) => list.map((s) => (s.key === key ? { ...s, [field]: value } : s)));
    if (field !== 'position') setMarks((old) => unmark(old, { index, field }));
  };
  const addStudent = () => {
    focusNewBlock.current = true;
    setStudents((list) => [...list, emptyStudent()]);
  };
  const removeStudent = (key: string) => {
    // at least one student always remains
    setStudents((list) => (list.length > 1 ? list.filter((s) => s.key !== key) : list));
    // The blocks after it move up: their marks would point at the wrong block.
    setMarks([]);
  };

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    const found = validateStudents(roleId, departmentId, students, suffix);
    setMarks(found?.marks ?? []);
    if (found) {
      toastError(found.message);
      return;
    }
    setBusy(true);
    // one after another, in the order of the form
    const outcomes = await createUsers.mutateAsync({
      students,
      body: (student) => ({
        first_name: student.first_name.trim(),
        last_name: student.last_name.trim(),
        login: composeLogin(student.local, suffix),
        password: '',
        department_id: Number(departmentId),
        role_id: Number(roleId),
        course_ids: courseIds,
        position: student.position.trim(),
      }),
      onEach: (outcome) => {
        const { student } = outcome;
        if ('error' in outcome) toastError(T.addUserError(errorText(outcome.error)));
        else
          toastSuccess(successMessage(outcome.data, T.userAdded(displayName(student.first_name, student.last_name))));
      },
    });
    const failed = outcomes.flatMap((outcome) => ('error' in outcome ? [outcome.student] : []));
    setBusy(false);
    if (failed.length === 0) onClose();
    else setStudents(failed); // the added ones leave the form; the others stay to be fixed
  };

  if (config.isPending) return <ContentLoader />;

  return (
    <form onSubmit={(event) => void onSubmit(event)} noValidate aria-label={T.addUsersTitle}>
      <Stack gap="md">
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="md">
          <RoleAndDepartment
            roleId={roleId}
            departmentId={departmentId}
            onChange={(field, value) => {
              if (field === 'roleId') setRoleId(value);
              else setDepartmentId(value);
              setMarks((old) => unmark(old, { field: field === 'roleId' ? 'role' : 'department' }));
            }}
            hasError={(field) => isMarked(marks, { field })}
            disabled={busy}
          />
        </SimpleGrid>

        <Stack gap="sm">
          {students.map((student, index) => {
            const n = index + 1;
            return (
              <Paper
                key={student.key}
                ref={index === students.length - 1 ? lastBlock : undefined}
                withBorder
                radius="md"
                p="md"
                bg="gray.0"
                role="group"
                aria-label={T.student(n)}
              >
                <Group justify="space-between" mb="xs" wrap="nowrap">
                  <Text fw={600} size="sm">
                    {T.student(n)}
                  </Text>
                  {students.length > 1 ? (
                    <Tooltip label={T.removeStudent(n)} withArrow>
                      <ActionIcon
                        variant="subtle"
                        color="red"
                        onClick={() => removeStudent(student.key)}
                        aria-label={T.removeStudent(n)}
                        disabled={busy}
                      >
                        <IconTrash size={18} aria-hidden="true" />
                      </ActionIcon>
                    </Tooltip>
                  ) : null}
                </Group>
                <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm" verticalSpacing="sm">
                  <PersonFields
                    value={student}
                    onChange={(field, value) => update(index, student.key, field, value)}
                    hasError={(field) => isMarked(marks, { index, field })}
                    suffix={suffix}
                    disabled={busy}
                    emailPlaceholder="ivanov"
                  />
                </SimpleGrid>
              </Paper>
            );
          })}
          <Box>
            <Button
              variant="light"
              leftSection={<IconUserPlus size={18} aria-hidden="true" />}
              onClick={addStudent}
              disabled={busy}
            >
              {T.addStudent}
            </Button>
          </Box>
        </Stack>

        <CourseMultiSelect value={courseIds} onChange={setCourseIds} visible={CHIPS_ADD_FORM} disabled={busy} />

        <Group gap={6} wrap="nowrap" align="flex-start">
          <IconInfoCircle size={16} color="var(--mantine-color-dimmed)" style={{ flexShrink: 0, marginTop: 2 }} />
          <Text size="xs" c="dimmed">
            {T.passwordHint}
          </Text>
        </Group>

        <ModalActions submitLabel={T.addSubmit} submitting={busy} busy={busy} onCancel={onClose} />
      </Stack>
    </form>
  );
}
