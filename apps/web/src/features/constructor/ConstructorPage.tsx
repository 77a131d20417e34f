import { Grid, Paper, Stack } from '@mantine/core';
import { IconFileText } from '@tabler/icons-react';
import { useState } from 'react';
import { Navigate, type Params } from 'react-router';
import { isNotFound } from '../../lib/errors';
import { LoadErrorNotice, LoadingStatus, Notice } from '../../shared/ListStates';
import { CourseHeader } from './CourseHeader';
import { EditableName } from './EditableName';
import { LessonEditor } from './LessonEditor';
import { MissingCourse, MissingItem, useLoadErrorToast } from './loadErrors';
import { findItem, firstLessonId } from './logic';
import { ModulePanel, type LessonSaveControl } from './ModulePanel';
import { ScormEditor } from './ScormEditor';
import { useCourse, useLesson, useModules } from './queries';
import { ConstructorBreadcrumbs, type ConstructorPlace } from './ConstructorBreadcrumbs';
import { ConstructorGate, parseId } from './ConstructorGate';
import { T } from './texts';

/**
 * The course constructor (docs/product.md §Constructor): /management/constructor/{courseId} and
 * /management/constructor/{courseId}/{lessonId}. Only for 'constructor.manage' (admins and authors);
 * everyone else sees 'Доступ запрещен' and nothing is requested.
 */
export default function ConstructorPage() {
  return (
    <ConstructorGate ids={constructorIds} badAddress={T.courseLoadError}>
      {({ courseId, lessonId }) => <Constructor key={courseId} courseId={courseId} lessonId={lessonId} />}
    </ConstructorGate>
  );
}

/** The course, and the lesson when the address names one. */
function constructorIds(params: Readonly<Params>) {
  const courseId = parseId(params.courseId);
  const lessonId = params.lessonId === undefined ? null : parseId(params.lessonId);
  return courseId === null || (params.lessonId !== undefined && lessonId === null) ? null : { courseId, lessonId };
}

function Constructor({ courseId, lessonId }: { courseId: number; lessonId: number | null }) {
  const course = useCourse(courseId);
  const modules = useModules(courseId);
  const [lessonSave, setLessonSave] = useState<LessonSaveControl | null>(null);

  useLoadErrorToast(course.error, course.errorUpdatedAt, T.courseLoadError, 'constructor-course-error');
  useLoadErrorToast(modules.error, modules.errorUpdatedAt, T.modulesLoadError, 'constructor-modules-error');

  const missing = [course.error, modules.error].find(isNotFound);
  if (missing) return <MissingCourse error={missing} />;
  if (course.isPending || modules.isPending) return <LoadingStatus text={T.loading} />;
  if (course.isError) {
    return <LoadErrorNotice title={T.courseLoadError} retryLabel={T.retry} query={course} />;
  }
  if (modules.isError) {
    return <LoadErrorNotice title={T.modulesLoadError} retryLabel={T.retry} query={modules} />;
  }

  // With no lesson chosen, the first lesson of the first module opens (replacing the address).
  if (lessonId === null) {
    const first = firstLessonId(modules.data);
    if (first !== null) return <Navigate to={`/management/constructor/${courseId}/${first}`} replace />;
  }
  const openItem = lessonId === null ? null : ({ type: 'lesson', id: lessonId } as const);
  const shown = openItem && findItem(modules.data, openItem);
  const place: ConstructorPlace = shown ? { name: shown.name } : 'constructor';

  return (
    <Stack gap="md">
      <ConstructorBreadcrumbs courseId={courseId} current={place} />

      <CourseHeader key={course.data.id} course={course.data} />

      <Grid gap="md" align="flex-start">
        <Grid.Col span={{ base: 12, lg: 4 }}>
          <ModulePanel course={course.data} modules={modules.data} openItem={openItem} lessonSave={lessonSave} />
        </Grid.Col>
        <Grid.Col span={{ base: 12, lg: 8 }}>
          {lessonId === null ? (
            <Notice icon={<IconFileText size={24} aria-hidden="true" />} title={T.noLessonSelected}>
              {T.noLessonSelectedHint}
            </Notice>
          ) : (
            <LessonPane key={lessonId} courseId={courseId} lessonId={lessonId} onSaveControl={setLessonSave} />
          )}
        </Grid.Col>
      </Grid>
    </Stack>
  );
}

function LessonPane({
  courseId,
  lessonId,
  onSaveControl,
}: {
  courseId: number;
  lessonId: number;
  onSaveControl: (control: LessonSaveControl | null) => void;
}) {
  const lesson = useLesson(courseId, lessonId);
  useLoadErrorToast(lesson.error, lesson.errorUpdatedAt, T.lessonLoadError, 'constructor-lesson-error');

  if (lesson.isPending) {
    return (
      <Paper withBorder p={{ base: 'md', sm: 'lg' }}>
        <Stack gap="md">
          <EditableName
            initialValue=""
            loading
            placeholder={T.lessonNamePlaceholder}
            label={T.lessonName}
            onSave={() => {}}
          />
          <LoadingStatus text={T.loading} />
        </Stack>
      </Paper>
    );
  }
  if (isNotFound(lesson.error))
    return <MissingItem error={lesson.error} fallback={T.lessonMissing} courseId={courseId} />;
  if (lesson.isError) {
    return <LoadErrorNotice title={T.lessonLoadError} retryLabel={T.retry} query={lesson} />;
  }
  // A SCORM item holds a package, not blocks: its page uploads and lists versions instead.
  if (lesson.data.kind === 'scorm') return <ScormEditor courseId={courseId} lesson={lesson.data} />;
  return <LessonEditor courseId={courseId} lesson={lesson.data} onSaveControl={onSaveControl} />;
}
