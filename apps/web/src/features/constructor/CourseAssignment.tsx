import { Divider, Paper, Stack, Text, Title } from '@mantine/core';
import { messageOr } from '../../lib/errors';
import { LoadErrorNotice, LoadingStatus } from '../../shared/ListStates';
import { toastError, toastSuccess } from '../../shared/toast';
import classes from './Constructor.module.css';
import { HolderBlock, type ApplyChange } from './AssignmentBlocks';
import { UsersBlock } from './AssignUsers';
import { useAssignment, useChangeAssignment } from './assignmentQueries';
import { AT } from './assignmentTexts';

/**
 * 'Назначение' of the course settings (docs/product.md §Course settings): the departments, groups and
 * employees the course is assigned to, added and removed in place. They are the same assignments as
 * the school settings' tabs; each change is applied at once (no save button) and its answer is the
 * assignment as it is now.
 */
export function CourseAssignment({ courseId }: { courseId: number }) {
  const assignment = useAssignment(courseId);
  const change = useChangeAssignment(courseId);

  const apply: ApplyChange = async (run) => {
    try {
      const { message } = await run();
      toastSuccess(message);
      return true;
    } catch (error) {
      toastError(messageOr(error, AT.changeError));
      return false;
    }
  };

  let body;
  if (assignment.isPending) body = <LoadingStatus text={AT.loading} />;
  else if (assignment.isError) body = <LoadErrorNotice title={AT.loadError} retryLabel={AT.retry} query={assignment} />;
  else {
    const { departments, groups, users, users_total, choices, learners } = assignment.data;
    const busy = change.isPending;
    body = (
      <Stack gap="lg">
        <Text fw={500} role="status" aria-live="polite">
          {AT.total(learners)}
        </Text>
        <HolderBlock
          texts={{
            title: AT.departments,
            empty: AT.noDepartments,
            addLabel: AT.addDepartments,
            placeholder: AT.chooseDepartments,
            noneLeft: AT.noDepartmentsLeft,
            confirmTitle: AT.removeDepartmentTitle,
            confirmQuestion: AT.removeDepartmentQuestion,
            confirmWarning: AT.removeDepartmentWarning,
          }}
          assigned={departments}
          choices={choices.departments}
          busy={busy}
          apply={apply}
          add={(ids) => change.mutateAsync({ kind: 'departments', ids })}
          remove={(id) => change.mutateAsync({ kind: 'departments', remove: id })}
        />
        <Divider />
        <HolderBlock
          texts={{
            title: AT.groups,
            empty: AT.noGroups,
            addLabel: AT.addGroups,
            placeholder: AT.chooseGroups,
            noneLeft: AT.noGroupsLeft,
            confirmTitle: AT.removeGroupTitle,
            confirmQuestion: AT.removeGroupQuestion,
            confirmWarning: AT.removeGroupWarning,
          }}
          assigned={groups}
          choices={choices.groups}
          busy={busy}
          apply={apply}
          add={(ids) => change.mutateAsync({ kind: 'groups', ids })}
          remove={(id) => change.mutateAsync({ kind: 'groups', remove: id })}
        />
        <Divider />
        <UsersBlock
          courseId={courseId}
          users={users}
          total={users_total}
          busy={busy}
          apply={apply}
          add={(ids) => change.mutateAsync({ kind: 'users', ids })}
          remove={(id) => change.mutateAsync({ kind: 'users', remove: id })}
        />
      </Stack>
    );
  }

  return (
    <Paper
      withBorder
      p={{ base: 'md', sm: 'lg' }}
      component="section"
      aria-labelledby="course-assignment-title"
      className={classes.fadeIn}
      maw={760}
    >
      <Stack gap="md">
        <div>
          <Title order={2} fz={20} id="course-assignment-title">
            {AT.section}
          </Title>
          <Text c="dimmed" size="sm">
            {AT.intro}
          </Text>
        </div>
        {body}
      </Stack>
    </Paper>
  );
}
