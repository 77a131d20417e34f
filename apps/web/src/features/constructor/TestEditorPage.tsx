import type { ConstructorTest, TestQuestion } from '@lms/contract';
import { Badge, Button, Grid, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { IconChartBar, IconDeviceFloppy, IconPlus, IconSettings } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import { useNavigate, type Params } from 'react-router';
import { isNotFound, messageOr } from '../../lib/errors';
import { moveBy } from '../../lib/reorder';
import { LoadErrorNotice, LoadingStatus } from '../../shared/ListStates';
import { toastError, toastSuccess } from '../../shared/toast';
import classes from './Constructor.module.css';
import { ConstructorBreadcrumbs, type ConstructorPlace } from './ConstructorBreadcrumbs';
import { ConfirmDialog } from './dialogs';
import { DeleteButton, ItemHeader, useItemHeading } from './ItemHeader';
import { LEAVE_WITHOUT_ASKING, LeaveGuard } from './LeaveGuard';
import { findItem } from './logic';
import { MissingCourse, MissingItem, useLoadErrorToast } from './loadErrors';
import { ModulePanel } from './ModulePanel';
import { DeletedQuestions, QuestionCard } from './QuestionCard';
import { useCourse, useModules } from './queries';
import {
  useDeleteTest,
  useQuestions,
  useSaveQuestions,
  useTest,
  useTestStatistics,
  useUpdateTest,
} from './testQueries';
import { TestSettingsDialog } from './TestSettingsDialog';
import { draftFromQuestions, newQuestion, planSave, settingsFormOf, type DraftQuestion } from './testRules';
import { splitStatistics, statisticsHeader } from './testStatistics';
import { ConstructorGate, parseId } from './ConstructorGate';
import { T } from './texts';

/**
 * The test page of the constructor (docs/product.md §Test authoring): /management/constructor/{courseId}/test/{testId}.
 * The editable test name, the settings button, the questions and 'Сохранить тест'. Only for admins
 * and authors; everyone else sees 'Доступ запрещен' and nothing is requested.
 */
export default function TestEditorPage() {
  return (
    <ConstructorGate ids={testIds} badAddress={T.testLoadError}>
      {({ courseId, testId }) => <TestScreen key={`${courseId}-${testId}`} courseId={courseId} testId={testId} />}
    </ConstructorGate>
  );
}

function testIds(params: Readonly<Params>) {
  const courseId = parseId(params.courseId);
  const testId = parseId(params.testId);
  return courseId === null || testId === null ? null : { courseId, testId };
}

function TestScreen({ courseId, testId }: { courseId: number; testId: number }) {
  const course = useCourse(courseId);
  const modules = useModules(courseId);
  const test = useTest(courseId, testId);
  const questions = useQuestions(testId);

  useLoadErrorToast(course.error, course.errorUpdatedAt, T.courseLoadError, 'constructor-course-error');
  useLoadErrorToast(modules.error, modules.errorUpdatedAt, T.modulesLoadError, 'constructor-modules-error');
  useLoadErrorToast(test.error, test.errorUpdatedAt, T.testLoadError, 'constructor-test-error');
  useLoadErrorToast(questions.error, questions.errorUpdatedAt, T.testLoadError, 'constructor-questions-error');

  const missingCourse = [course.error, modules.error].find(isNotFound);
  if (missingCourse) return <MissingCourse error={missingCourse} />;
  const missingTest = [test.error, questions.error].find(isNotFound);

  let pane;
  if (missingTest) pane = <MissingItem error={missingTest} fallback={T.testMissing} courseId={courseId} />;
  else if (test.isPending || questions.isPending) pane = <LoadingStatus text={T.loading} />;
  else if (test.isError || questions.isError) {
    const failed = test.isError ? test : questions;
    pane = <LoadErrorNotice title={T.testLoadError} retryLabel={T.retry} query={failed} />;
  } else pane = <TestEditor courseId={courseId} test={test.data} questions={questions.data} />;

  const openItem = { type: 'test', id: testId } as const;
  const shown = modules.data && findItem(modules.data, openItem);
  const place: ConstructorPlace = shown ? { name: shown.name } : test.data ? { name: test.data.name } : 'constructor';

  return (
    <Stack gap="md">
      <ConstructorBreadcrumbs courseId={courseId} current={place} />
      <Grid gap="md" align="flex-start">
        <Grid.Col span={{ base: 12, lg: 4 }}>
          {modules.data && course.data ? (
            <ModulePanel course={course.data} modules={modules.data} openItem={openItem} />
          ) : modules.isError || course.isError ? (
            <LoadErrorNotice
              title={modules.isError ? T.modulesLoadError : T.courseLoadError}
              retryLabel={T.retry}
              onRetry={() => void (modules.isError ? modules.refetch() : course.refetch())}
              retrying={modules.isFetching || course.isFetching}
            />
          ) : (
            <LoadingStatus text={T.loading} />
          )}
        </Grid.Col>
        <Grid.Col span={{ base: 12, lg: 8 }}>{pane}</Grid.Col>
      </Grid>
    </Stack>
  );
}

interface TestEditorProps {
  courseId: number;
  test: ConstructorTest;
  questions: TestQuestion[];
}

function TestEditor({ courseId, test, questions }: TestEditorProps) {
  const [drafts, setDrafts] = useState<DraftQuestion[]>(() => draftFromQuestions(questions));
  const [settingsOpen, setSettingsOpen] = useState(false);
  const [settingsKey, setSettingsKey] = useState(0);
  const updateTest = useUpdateTest(courseId, test.id);
  const saveQuestions = useSaveQuestions(test.id);
  const deleteTest = useDeleteTest(courseId);
  const navigate = useNavigate();
  const [confirmDelete, setConfirmDelete] = useState(false);
  // Unsaved: questions changed since the last save, or a name typed and not saved yet.
  const [edited, setEdited] = useState(false);
  const statistics = useTestStatistics(test.id);
  const attempts = statistics.data?.attempts ?? 0;
  const figures = useMemo(
    () =>
      statistics.data && statistics.data.attempts > 0
        ? splitStatistics(
            statistics.data.questions,
            drafts.map((q) => q.key),
          )
        : null,
    [statistics.data, drafts],
  );

  const editDrafts = (update: (list: DraftQuestion[]) => DraftQuestion[]) => {
    setDrafts(update);
    setEdited(true);
  };

  const remove = async () => {
    try {
      toastSuccess(await deleteTest.mutateAsync(test.id));
      // The test is gone, and its unsaved changes with it: nothing to ask about.
      void navigate('/management', { state: LEAVE_WITHOUT_ASKING });
    } catch (error) {
      toastError(messageOr(error, T.testDeleteError));
    } finally {
      setConfirmDelete(false);
    }
  };

  /** The test's name line and its own switch, as the lesson's (issue 30): published or not, back on a refusal. */
  const heading = useItemHeading(
    test,
    {
      label: T.testName,
      placeholder: T.testNamePlaceholder,
      renamed: T.testRenamed,
      renameError: T.testRenameError,
      flagSaved: T.saved,
    },
    (change, callbacks) => updateTest.mutate(change, callbacks),
  );

  const changeQuestion = (key: DraftQuestion['key'], update: (q: DraftQuestion) => DraftQuestion) =>
    editDrafts((list) => list.map((q) => (q.key === key ? update(q) : q)));

  const save = async () => {
    const plan = planSave(drafts);
    if ('error' in plan) {
      toastError(plan.error);
      return;
    }
    try {
      const { questions: saved, message } = await saveQuestions.mutateAsync(plan);
      setDrafts(draftFromQuestions(saved));
      setEdited(false);
      toastSuccess(message);
    } catch (error) {
      toastError(messageOr(error, T.questionsSaveError));
    }
  };

  // 'Сохранить тест' stands in the header and under the questions.
  const saveButton = (
    <Button
      leftSection={<IconDeviceFloppy size={16} aria-hidden="true" />}
      onClick={() => void save()}
      loading={saveQuestions.isPending}
    >
      {T.saveTest}
    </Button>
  );

  return (
    <Stack gap="md" className={classes.fadeIn}>
      <LeaveGuard when={edited || heading.namePending} />
      <ItemHeader
        kind={T.testKind}
        top={
          <Group gap="xs">
            <Badge variant="light" color="grape" radius="sm">
              {T.testKind}
            </Badge>
          </Group>
        }
        heading={heading}
        statusLabel={T.testStatus}
        actions={
          <>
            <Button
              variant="default"
              leftSection={<IconSettings size={16} aria-hidden="true" />}
              onClick={() => {
                setSettingsKey((k) => k + 1);
                setSettingsOpen(true);
              }}
            >
              {T.testSettingsButton}
            </Button>
            <DeleteButton onClick={() => setConfirmDelete(true)}>{T.deleteTest}</DeleteButton>
            {saveButton}
          </>
        }
      />

      <Paper withBorder p={{ base: 'md', sm: 'lg' }} component="section" aria-label={T.questions}>
        <Stack gap="md">
          <Group justify="space-between">
            <Title order={2} fz="lg">
              {T.questions}
            </Title>
            <Text size="sm" c="dimmed">
              {T.saveTestHint}
            </Text>
          </Group>
          {figures && (
            <Group gap={6} wrap="nowrap" data-testid="test-statistics">
              <IconChartBar size={16} color="var(--mantine-color-dimmed)" aria-hidden="true" />
              <Text size="sm" c="dimmed">
                {statisticsHeader(attempts)}
              </Text>
            </Group>
          )}
          {drafts.length === 0 && (
            <Text c="dimmed" size="sm">
              {T.noQuestions}
            </Text>
          )}
          {drafts.map((q, index) => (
            <QuestionCard
              key={q.key}
              question={q}
              number={index + 1}
              count={drafts.length}
              statistic={typeof q.key === 'number' ? figures?.byId.get(q.key) : undefined}
              onChange={(update) => changeQuestion(q.key, update)}
              onMove={(delta) => editDrafts((list) => moveBy(list, index, delta))}
              onDelete={() => editDrafts((list) => list.filter((x) => x.key !== q.key))}
            />
          ))}
          {figures && figures.deleted.length > 0 && <DeletedQuestions questions={figures.deleted} />}
          <Group justify="space-between">
            <Button
              variant="default"
              leftSection={<IconPlus size={16} aria-hidden="true" />}
              onClick={() => editDrafts((list) => [...list, newQuestion()])}
            >
              {T.addQuestion}
            </Button>
            {saveButton}
          </Group>
        </Stack>
      </Paper>

      <ConfirmDialog
        opened={confirmDelete}
        title={T.deleteTestTitle}
        question={T.deleteTestQuestion(heading.typedName)}
        busy={deleteTest.isPending}
        onConfirm={() => void remove()}
        onClose={() => setConfirmDelete(false)}
      />
      <TestSettingsDialog
        key={`settings-${settingsKey}`}
        opened={settingsOpen}
        mode="edit"
        initial={settingsFormOf(test)}
        onClose={() => setSettingsOpen(false)}
        onSubmit={async (settings) => {
          try {
            const { message } = await updateTest.mutateAsync(settings);
            toastSuccess(message || T.testSettingsSaved);
            return true;
          } catch (error) {
            toastError(messageOr(error, T.testSettingsError));
            return false;
          }
        }}
      />
    </Stack>
  );
}
