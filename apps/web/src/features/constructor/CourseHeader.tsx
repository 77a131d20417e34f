import type { ConstructorCourse } from '@lms/contract';
import { Box, Button, FileButton, Flex, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { IconPhoto, IconPhotoEdit } from '@tabler/icons-react';
import { useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { UnsuccessfulAnswer, errorStatus, messageOr, serverMessage } from '../../lib/errors';
import { toastError, toastSuccess } from '../../shared/toast';
import classes from './Constructor.module.css';
import { ConfirmDialog } from './dialogs';
import { HeaderField } from './HeaderField';
import { DeleteButton, PublishSwitch } from './ItemHeader';
import { useDeleteCourse, usePublishCourse, useUpdateCourse, useUploadCourseImage } from './queries';
import { T } from './texts';

/** The course image: a storage path without the leading slash (docs/product.md §Constructor), shown with one. */
export function courseImageSrc(image: string | null): string | null {
  return image ? `/${image.replace(/^\/+/, '')}` : null;
}

/** A 4xx: the server refused the change (as opposed to failing, or not answering at all). */
function isRefusal(error: unknown): boolean {
  const status = errorStatus(error);
  return status !== undefined && status >= 400 && status < 500;
}

/**
 * The course header of the constructor (docs/product.md §Constructor): a round 107 px image with a change
 * button, the editable title (≤ 150) and description (≤ 255), the status switch and deleting.
 */
export function CourseHeader({ course }: { course: ConstructorCourse }) {
  const navigate = useNavigate();
  const update = useUpdateCourse(course.id);
  const upload = useUploadCourseImage(course.id);
  const publish = usePublishCourse(course.id);
  const remove = useDeleteCourse(course.id);
  // The switch flips at once and the server is told afterwards (docs/product.md §Constructor); only a refusal puts it back.
  const [published, setPublished] = useState(course.is_published);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const latest = useRef(course);
  latest.current = course;
  const src = courseImageSrc(course.image);

  const save = async (change: { title: string } | { description: string }): Promise<boolean> => {
    try {
      const { message } = await update.mutateAsync(change);
      toastSuccess(message);
      return true;
    } catch (error) {
      toastError(messageOr(error, T.saveDataError));
      return false;
    }
  };

  const changeImage = async (file: File | null) => {
    if (!file) return;
    try {
      const { message } = await upload.mutateAsync(file);
      toastSuccess(message);
      // After an upload the published state is set again from the course (docs/product.md §Constructor).
      setPublished(latest.current.is_published);
    } catch (error) {
      toastError(messageOr(error, T.imageError));
    }
  };

  const changeStatus = (next: boolean) => {
    setPublished(next);
    publish.mutate(next, {
      onSuccess: (message) => toastSuccess(message),
      onError: (error) => {
        // A refusal (an answer without success, or a 4xx) is shown with its reason and the switch
        // goes back to the real state (issue 30); a request that got no verdict is only logged (docs/product.md §Constructor).
        if (error instanceof UnsuccessfulAnswer || isRefusal(error)) {
          setPublished(!next);
          const reason = serverMessage(error);
          toastError(reason ? `${T.statusError}: ${reason}` : T.statusError);
        } else console.error(T.statusError, error);
      },
    });
  };

  const deleteCourse = async () => {
    try {
      const message = await remove.mutateAsync();
      toastSuccess(message);
      setConfirmDelete(false);
      void navigate('/management');
    } catch (error) {
      toastError(messageOr(error, T.courseDeleteError));
      setConfirmDelete(false);
    }
  };

  return (
    <Paper withBorder p={{ base: 'md', sm: 'lg' }} component="section" aria-label={T.courseKind}>
      <Flex direction={{ base: 'column', sm: 'row' }} gap={{ base: 'md', sm: 'lg' }} align={{ sm: 'flex-start' }}>
        <Stack gap={8} align="center" style={{ flex: '0 0 auto' }}>
          <Box className={classes.courseImage}>
            {src ? (
              <img src={src} alt={T.courseImage} width={107} height={107} style={{ objectFit: 'cover' }} />
            ) : (
              <IconPhoto size={40} stroke={1.4} aria-hidden="true" />
            )}
          </Box>
          <FileButton onChange={(file) => void changeImage(file)} accept="image/*">
            {(props) => (
              <Button
                {...props}
                size="xs"
                variant="light"
                leftSection={<IconPhotoEdit size={14} aria-hidden="true" />}
                loading={upload.isPending}
                aria-label={T.changeImageLabel}
              >
                {T.changeImage}
              </Button>
            )}
          </FileButton>
        </Stack>

        <Stack gap="xs" flex={1} miw={0}>
          <HeaderField
            value={course.title}
            max={T.titleMax}
            label={T.courseTitle}
            editHint={T.editTitle}
            renderValue={(shown) => (
              <Title order={1} fz={{ base: 22, sm: 26 }} lh={1.25}>
                {shown}
              </Title>
            )}
            onCommit={(title) => save({ title })}
          />
          <HeaderField
            value={course.description}
            max={T.descriptionMax}
            multiline
            label={T.courseDescription}
            editHint={T.editDescription}
            emptyText={T.noDescription}
            renderValue={(shown) => (
              <Text c="dimmed" style={{ whiteSpace: 'pre-line' }}>
                {shown}
              </Text>
            )}
            onCommit={(description) => save({ description })}
          />
        </Stack>

        <Stack gap="sm" align="flex-start" style={{ flex: '0 0 auto' }}>
          <PublishSwitch published={published} label={T.courseStatus} large onChange={changeStatus} />
          <Group gap="xs">
            <DeleteButton small onClick={() => setConfirmDelete(true)}>
              {T.deleteCourse}
            </DeleteButton>
          </Group>
        </Stack>
      </Flex>

      <ConfirmDialog
        opened={confirmDelete}
        title={T.deleteCourseTitle}
        question={T.deleteCourseQuestion(course.title)}
        busy={remove.isPending}
        onConfirm={() => void deleteCourse()}
        onClose={() => setConfirmDelete(false)}
      />
    </Paper>
  );
}
