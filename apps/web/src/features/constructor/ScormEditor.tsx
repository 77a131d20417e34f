import type { ConstructorLesson } from '@lms/contract';
import { Badge, Stack } from '@mantine/core';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { messageOr } from '../../lib/errors';
import { toastError, toastSuccess } from '../../shared/toast';
import classes from './Constructor.module.css';
import { ConfirmDialog } from './dialogs';
import { DeleteButton, ItemHeader, useItemHeading } from './ItemHeader';
import { LEAVE_WITHOUT_ASKING, LeaveGuard } from './LeaveGuard';
import { useDeleteLesson, useUpdateLesson } from './lessonQueries';
import { ScormUploadCard } from './ScormUploadCard';
import { ScormVersions } from './ScormVersions';
import { useScormVersions } from './scormQueries';
import { T } from './texts';

interface ScormEditorProps {
  courseId: number;
  lesson: ConstructorLesson;
}

/**
 * The constructor's page of a SCORM item (docs/rules.md §SCORM packages), in place of the block
 * editor: the lesson's name line and publish switch (publishing without a package is refused by the
 * server, and its message shows as any other), the upload card and the package's versions.
 */
export function ScormEditor({ courseId, lesson }: ScormEditorProps) {
  const navigate = useNavigate();
  const lessonId = lesson.id;
  const updateLesson = useUpdateLesson(courseId);
  const deleteLesson = useDeleteLesson(courseId);
  const versions = useScormVersions(courseId, lessonId);
  const [confirmDelete, setConfirmDelete] = useState(false);

  const heading = useItemHeading(
    lesson,
    {
      label: T.lessonName,
      placeholder: T.lessonNamePlaceholder,
      renamed: T.lessonRenamed,
      renameError: T.lessonRenameError,
    },
    (change, callbacks) => updateLesson.mutate({ lessonId, ...change }, callbacks),
  );

  const removeLesson = async () => {
    try {
      toastSuccess(await deleteLesson.mutateAsync(lessonId));
      setConfirmDelete(false);
      void navigate('/management', { state: LEAVE_WITHOUT_ASKING });
    } catch (error) {
      toastError(messageOr(error, T.lessonDeleteError));
      setConfirmDelete(false);
    }
  };

  const hasPackage = (versions.data?.length ?? 0) > 0;

  return (
    <Stack gap="md" className={classes.fadeIn}>
      <LeaveGuard when={heading.namePending} />
      <ItemHeader
        kind={T.scormKind}
        heading={heading}
        statusLabel={T.lessonStatus}
        top={
          <Badge variant="light" radius="sm" w="fit-content">
            {T.scormKind}
          </Badge>
        }
        actions={<DeleteButton onClick={() => setConfirmDelete(true)}>{T.deleteLesson}</DeleteButton>}
      />
      <ScormUploadCard courseId={courseId} lessonId={lessonId} hasPackage={hasPackage} />
      <ScormVersions query={versions} />
      <ConfirmDialog
        opened={confirmDelete}
        title={T.deleteLessonTitle}
        question={T.deleteLessonQuestion(lesson.name)}
        busy={deleteLesson.isPending}
        onConfirm={() => void removeLesson()}
        onClose={() => setConfirmDelete(false)}
      />
    </Stack>
  );
}
