import type { ConstructorTest, TestQuestion } from '@lms/contract';
import { Anchor, Badge, Button, Grid, Group, Paper, Stack, Switch, Text, Title } from '@mantine/core';
import { IconChartBar, IconDeviceFloppy, IconFileText, IconPlus, IconSettings, IconTrash } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { Link } from '../../shared/Link';
import { isNotFound, messageOr } from '../../lib/errors';
import { moveBy } from '../../lib/reorder';
import { AccessDeniedNotice } from '../../shared/AccessDeniedNotice';
import { LoadErrorNotice, LoadingStatus, Notice } from '../../shared/ListStates';
import { useSession } from '../../shared/session';
import { toastError, toastSuccess } from '../../shared/toast';
import classes from './Constructor.module.css';
import { ConstructorBreadcrumbs, type ConstructorPlace } from './ConstructorBreadcrumbs';
import { ConfirmDialog } from './dialogs';
import { EditableName } from './EditableName';
import { LEAVE_WITHOUT_ASKING, LeaveGuard } from './LeaveGuard';
import { canUseConstructor, findItem } from './logic';
import { MissingCourse, MissingItem, useLoadErrorToast } from './loadErrors';
import { ModulePanel } from './ModulePanel';
import { DeletedQuestions, QuestionCard } from './QuestionCard';
import {
  useCourse,
  useDeleteTest,
  useModules,
  useQuestions,
  useSaveQuestions,
  useTest,
  useTestStatistics,
  useUpdateTest,
} from './queries';
import { TestSettingsDialog } from './TestSettingsDialog';
import { draftFromQuestions, newQuestion, planSave, settingsFormOf, type DraftQuestion } from './testRules';
import { splitStatistics, statisticsHeader } from './testStatistics';
import { T } from './texts';

function parseId(raw: string | undefined): number | null {
  if (raw === undefined || !/^\d+$/.test(raw)) return null;
  const id = Number(raw);
  return Number.isSafeInteger(id) && id > 0 ? id : null;
}

/**
 * The test page of the constructor (spec 03 §2.4): /management/constructor/{courseId}/test/{testId}.
 * The editable test name, the settings button, the questions and 'Сохранить тест'. Only for admins
 * and authors; everyone else sees 'Доступ запрещен' and nothing is requested.
 */
export default function TestEditorPage() {
  const { user } = useSession();
  const params = useParams();
  if (!canUseConstructor(user?.permissions)) {
    return <AccessDeniedNotice title={T.accessDenied} hint={T.accessDeniedHint} />;
  }
  const courseId = parseId(params.courseId);
  const testId = parseId(params.testId);
  if (courseId === null || testId === null) {
    return (
      <Notice icon={<IconFileText size={24} aria-hidden="true" />} color="red" title={T.testLoadError}>
        <Anchor component={Link} to="/management">
          {T.constructor}
        </Anchor>
      </Notice>
    );
  }
  return <TestScreen key={`${courseId}-${testId}`} courseId={courseId} testId={testId} />;
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
    pane = (
      <LoadErrorNotice
        title={T.testLoadError}
        retryLabel={T.retry}
        onRetry={() => void failed.refetch()}
        retrying={failed.isFetching}
      />
    );
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
            <ModulePanel
              courseId={courseId}
              courseTitle={course.data.title}
              modules={modules.data}
              openItem={openItem}
              lessonSave={null}
            />
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
  const [name, setName] = useState(test.name);
  // Unsaved: questions changed since the last save, or a name typed and not saved yet.
  const [edited, setEdited] = useState(false);
  const [namePending, setNamePending] = useState(false);
  const [published, setPublished] = useState(test.is_published);
  const [seenPublished, setSeenPublished] = useState(test.is_published);
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

  // Publish-all (or another tab) may change the flag; the switch follows the stored test.
  if (test.is_published !== seenPublished) {
    setSeenPublished(test.is_published);
    setPublished(test.is_published);
  }

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

  const saveName = (name: string) => {
    updateTest.mutate(
      { name },
      {
        onSuccess: ({ message }) => toastSuccess(message || T.testRenamed),
        onError: (error) => toastError(messageOr(error, T.testRenameError)),
      },
    );
  };

  /** The test's own switch, as the lesson's (issue 30): published or not, back on a refusal. */
  const changePublished = (next: boolean) => {
    setPublished(next);
    updateTest.mutate(
      { name, is_published: next },
      {
        onSuccess: ({ message }) => toastSuccess(message || T.saved),
        onError: (error) => {
          setPublished(!next);
          toastError(messageOr(error, T.publishStatusError));
        },
      },
    );
  };

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

  return (
    <Stack gap="md" className={classes.fadeIn}>
      <LeaveGuard when={edited || namePending} />
      <Paper withBorder p={{ base: 'md', sm: 'lg' }} component="section" aria-label={T.testKind}>
        <Stack gap="sm">
          <Group gap="xs">
            <Badge variant="light" color="grape" radius="sm">
              {T.testKind}
            </Badge>
          </Group>
          <EditableName
            initialValue={test.name}
            placeholder={T.testNamePlaceholder}
            label={T.testName}
            onChange={setName}
            onSave={saveName}
            onPendingChange={setNamePending}
          />
          <Group justify="space-between" gap="sm">
            <Switch
              checked={published}
              onChange={(event) => changePublished(event.currentTarget.checked)}
              color="green"
              aria-label={T.testStatus}
              label={
                <Text
                  component="span"
                  fw={600}
                  size="sm"
                  className={published ? classes.published : classes.unpublished}
                >
                  {published ? T.published : T.unpublished}
                </Text>
              }
            />
            <Group gap="xs">
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
              <Button
                variant="subtle"
                color="red"
                leftSection={<IconTrash size={16} aria-hidden="true" />}
                onClick={() => setConfirmDelete(true)}
              >
                {T.deleteTest}
              </Button>
              <Button
                leftSection={<IconDeviceFloppy size={16} aria-hidden="true" />}
                onClick={() => void save()}
                loading={saveQuestions.isPending}
              >
                {T.saveTest}
              </Button>
            </Group>
          </Group>
        </Stack>
      </Paper>

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
            <Button
              leftSection={<IconDeviceFloppy size={16} aria-hidden="true" />}
              onClick={() => void save()}
              loading={saveQuestions.isPending}
            >
              {T.saveTest}
            </Button>
          </Group>
        </Stack>
      </Paper>

      <ConfirmDialog
        opened={confirmDelete}
        title={T.deleteTestTitle}
        question={T.deleteTestQuestion(name)}
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
