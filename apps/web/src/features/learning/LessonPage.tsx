import { Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { isNotFound } from '../../lib/errors';
import { toastError, toastSuccess } from '../../shared/toast';
import { ConfirmModal } from './ConfirmModal';
import { ContentsDrawer } from './ContentsDrawer';
import { ItemNav } from './ItemNav';
import { LessonBlocks } from './LessonBlocks';
import { LessonFooter } from './LessonFooter';
import { parseId } from './params';
import { useLessonContents, useLessonProgress } from './queries';
import { ScormLesson } from './ScormLesson';
import { BackLink, Loading, LoadError, Missing } from './states';
import { LEARNING_TEXTS as T } from './texts';

interface LessonViewProps {
  courseId: number;
  lessonId: number;
}

function LessonView({ courseId, lessonId }: LessonViewProps) {
  const navigate = useNavigate();
  const lesson = useLessonContents(courseId, lessonId);
  const start = useLessonProgress(lessonId, 'start');
  const complete = useLessonProgress(lessonId, 'complete');
  const [contentsOpen, setContentsOpen] = useState(false);
  const [confirmed, setConfirmed] = useState(false);
  const coursePath = `/courses/${courseId}`;

  const data = lesson.data;
  // A SCORM lesson starts with its launch and completes itself (docs/rules.md §SCORM packages).
  const scorm = data?.kind === 'scorm';
  const askToStart = !!data && !scorm && !data.started_at && !data.completed_at && !confirmed;

  const onStart = () =>
    start.mutate(undefined, {
      onSuccess: () => {
        setConfirmed(true);
        toastSuccess(T.startedToast);
      },
      onError: () => toastError(T.startError),
    });
  const onComplete = () =>
    complete.mutate(undefined, {
      onSuccess: () => {
        setConfirmed(true);
        toastSuccess(T.completedToast);
      },
      onError: () => toastError(T.completeError),
    });

  const navButtons = data ? (
    <ItemNav
      courseId={courseId}
      previous={data.previous_item}
      next={data.next_item}
      onContents={() => setContentsOpen(true)}
    />
  ) : null;

  if (isNotFound(lesson.error)) return <Missing error={lesson.error} fallback={T.lessonMissing} courseId={courseId} />;

  return (
    <Stack gap="lg" maw={scorm ? undefined : 960}>
      <BackLink to={coursePath}>{T.toCourse}</BackLink>
      {lesson.isPending ? (
        <Loading />
      ) : lesson.isError ? (
        <LoadError error={lesson.error} />
      ) : (
        <>
          <Group justify="space-between" align="flex-start" gap="md">
            <Title order={1} fz={{ base: 22, sm: 28 }} style={{ flex: '1 1 320px' }}>
              {lesson.data.name}
            </Title>
            {navButtons}
          </Group>
          {scorm ? (
            <ScormLesson courseId={courseId} lessonId={lessonId} name={lesson.data.name} />
          ) : (
            <>
              <Paper withBorder p={{ base: 'md', sm: 'xl' }} radius="lg">
                <LessonBlocks blocks={lesson.data.contents} />
              </Paper>
              <LessonFooter
                startedAt={lesson.data.started_at}
                completedAt={lesson.data.completed_at}
                serverTime={lesson.data.server_time}
                completing={complete.isPending}
                onComplete={onComplete}
              />
            </>
          )}
          <ContentsDrawer
            courseId={courseId}
            current={{ type: 'lesson', id: lessonId }}
            opened={contentsOpen}
            onClose={() => setContentsOpen(false)}
          />
        </>
      )}
      {/* 'Начало урока': max 500 px, closes in 500 ms, locks the page's scroll (docs/product.md §Lesson page). */}
      <ConfirmModal
        opened={askToStart}
        title={T.confirmTitle}
        text={T.confirmText}
        cancelLabel={T.cancel}
        confirmLabel={T.yes}
        busy={start.isPending}
        focus="confirm"
        lockScroll
        transitionProps={{ duration: 500 }}
        onCancel={() => void navigate(coursePath)}
        onConfirm={onStart}
      />
    </Stack>
  );
}

/** Lesson page /courses/{id}/lesson/{lessonId} (docs/product.md §Lesson page). */
export default function LessonPage() {
  const params = useParams();
  const courseId = parseId(params.courseId);
  const lessonId = parseId(params.lessonId);
  if (courseId === null || lessonId === null) return <Text c="red">{T.courseIdMissing}</Text>;
  return <LessonView key={`${courseId}-${lessonId}`} courseId={courseId} lessonId={lessonId} />;
}
