import { QUESTION_TEXT_MAX, type ConstructorTest, type QuestionStatistic, type TestQuestion } from '@lms/contract';
import {
  Accordion,
  ActionIcon,
  Anchor,
  Badge,
  Box,
  Button,
  Checkbox,
  FileButton,
  Grid,
  Group,
  Image,
  Paper,
  Radio,
  SegmentedControl,
  Stack,
  Text,
  Textarea,
  TextInput,
  Title,
  Tooltip,
} from '@mantine/core';
import {
  IconArrowDown,
  IconArrowUp,
  IconChartBar,
  IconDeviceFloppy,
  IconFileText,
  IconPhoto,
  IconPlus,
  IconSettings,
  IconTrash,
  IconX,
} from '@tabler/icons-react';
import { useEffect, useMemo, useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { Link } from '../../shared/Link';
import { isNotFound, messageOr } from '../../lib/errors';
import { moveBy } from '../../lib/reorder';
import { AccessDeniedNotice } from '../../shared/AccessDeniedNotice';
import { LoadErrorNotice, LoadingStatus, Notice } from '../../shared/ListStates';
import { useSession } from '../../shared/session';
import { toastError, toastSuccess } from '../../shared/toast';
import classes from './Constructor.module.css';
import { EditableName } from './EditableName';
import { MissingCourse, MissingItem, useLoadErrorToast } from './loadErrors';
import { canUseConstructor, IMAGE_ACCEPT, imageFileProblem, storagePath } from './logic';
import { ModulePanel } from './ModulePanel';
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
import { ConfirmDialog } from './dialogs';
import { TestSettingsDialog } from './TestSettingsDialog';
import {
  canDeleteAnswer,
  draftFromQuestions,
  limitText,
  markCorrect,
  newAnswer,
  newQuestion,
  planSave,
  setMultiple,
  settingsFormOf,
  type DraftAnswer,
  type DraftQuestion,
} from './testRules';
import { correctColor, formatAnswerTime, splitStatistics, statisticsHeader } from './testStatistics';
import { ConstructorBreadcrumbs } from './ConstructorBreadcrumbs';
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

  return (
    <Stack gap="md">
      <ConstructorBreadcrumbs courseId={courseId} />
      <Grid gap="md" align="flex-start">
        <Grid.Col span={{ base: 12, lg: 4 }}>
          {modules.data && course.data ? (
            <ModulePanel
              courseId={courseId}
              courseTitle={course.data.title}
              modules={modules.data}
              lessonId={null}
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

  const remove = async () => {
    try {
      toastSuccess(await deleteTest.mutateAsync(test.id));
      void navigate('/management');
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

  const changeQuestion = (key: DraftQuestion['key'], update: (q: DraftQuestion) => DraftQuestion) =>
    setDrafts((list) => list.map((q) => (q.key === key ? update(q) : q)));

  const save = async () => {
    const plan = planSave(drafts);
    if ('error' in plan) {
      toastError(plan.error);
      return;
    }
    try {
      const { questions: saved, message } = await saveQuestions.mutateAsync(plan);
      setDrafts(draftFromQuestions(saved));
      toastSuccess(message);
    } catch (error) {
      toastError(messageOr(error, T.questionsSaveError));
    }
  };

  return (
    <Stack gap="md" className={classes.fadeIn}>
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
          />
          <Group justify="space-between" gap="sm">
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
            <Group gap="xs">
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
              onMove={(delta) => setDrafts((list) => moveBy(list, index, delta))}
              onDelete={() => setDrafts((list) => list.filter((x) => x.key !== q.key))}
            />
          ))}
          {figures && figures.deleted.length > 0 && <DeletedQuestions questions={figures.deleted} />}
          <Group justify="space-between">
            <Button
              variant="default"
              leftSection={<IconPlus size={16} aria-hidden="true" />}
              onClick={() => setDrafts((list) => [...list, newQuestion()])}
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

interface QuestionCardProps {
  question: DraftQuestion;
  number: number;
  count: number;
  /** The figures over the finished attempts, when the question has any. */
  statistic?: QuestionStatistic | undefined;
  onChange: (update: (q: DraftQuestion) => DraftQuestion) => void;
  onMove: (delta: -1 | 1) => void;
  onDelete: () => void;
}

function QuestionCard({ question, number, count, statistic, onChange, onMove, onDelete }: QuestionCardProps) {
  const changeAnswer = (key: DraftAnswer['key'], update: (a: DraftAnswer) => DraftAnswer) =>
    onChange((q) => ({ ...q, answers: q.answers.map((a) => (a.key === key ? update(a) : a)) }));
  const deletable = canDeleteAnswer(question);

  return (
    <Paper
      withBorder
      radius="md"
      p="md"
      bg="var(--mantine-color-gray-0)"
      component="section"
      aria-label={T.question(number)}
      data-testid="question"
    >
      <Stack gap="sm">
        <Group justify="space-between" wrap="nowrap">
          <Text fw={700}>{T.question(number)}</Text>
          <Group gap={4} wrap="nowrap">
            <ActionIcon
              variant="subtle"
              color="gray"
              className={classes.arrow}
              disabled={number === 1}
              onClick={() => onMove(-1)}
              aria-label={T.questionUp(number)}
            >
              <IconArrowUp size={16} aria-hidden="true" />
            </ActionIcon>
            <ActionIcon
              variant="subtle"
              color="gray"
              className={classes.arrow}
              disabled={number === count}
              onClick={() => onMove(1)}
              aria-label={T.questionDown(number)}
            >
              <IconArrowDown size={16} aria-hidden="true" />
            </ActionIcon>
            <ActionIcon variant="subtle" color="red" onClick={onDelete} aria-label={T.deleteQuestion(number)}>
              <IconTrash size={16} aria-hidden="true" />
            </ActionIcon>
          </Group>
        </Group>
        {statistic && <QuestionFigures statistic={statistic} label={T.statsOfQuestion(number)} />}
        <Textarea
          label={T.questionText}
          aria-label={`${T.questionText} ${number}`}
          value={question.text}
          onChange={(e) => {
            const text = limitText(e.currentTarget.value);
            onChange((q) => ({ ...q, text }));
          }}
          maxLength={QUESTION_TEXT_MAX}
          rows={2}
          resize="vertical"
          description={T.counter(question.text.length, QUESTION_TEXT_MAX)}
          inputWrapperOrder={['label', 'input', 'description', 'error']}
        />
        <Group gap="lg" wrap="wrap">
          <Stack gap={4}>
            <Text size="sm" fw={500} id={`qtype-${question.key}`}>
              {T.questionType}
            </Text>
            <SegmentedControl
              aria-labelledby={`qtype-${question.key}`}
              value={question.type}
              onChange={(value) => onChange((q) => ({ ...q, type: value === 'image' ? 'image' : 'text' }))}
              data={[
                { value: 'text', label: T.typeTextAnswers },
                { value: 'image', label: T.typeImageAnswers },
              ]}
            />
          </Stack>
          <Stack gap={4}>
            <Text size="sm" fw={500} id={`qmode-${question.key}`}>
              {T.correctMode}
            </Text>
            <SegmentedControl
              aria-labelledby={`qmode-${question.key}`}
              value={question.multiple ? 'multiple' : 'single'}
              onChange={(value) => onChange((q) => setMultiple(q, value === 'multiple'))}
              data={[
                { value: 'single', label: T.singleCorrect },
                { value: 'multiple', label: T.multipleCorrect },
              ]}
            />
          </Stack>
        </Group>
        <Text size="sm" fw={500}>
          {T.answers}
        </Text>
        <Stack gap="xs">
          {question.answers.map((a, i) => (
            <AnswerRow
              key={a.key}
              answer={a}
              question={number}
              number={i + 1}
              image={question.type === 'image'}
              multiple={question.multiple}
              deletable={deletable}
              onCorrect={(correct) => onChange((q) => markCorrect(q, a.key, correct))}
              onChange={(update) => changeAnswer(a.key, update)}
              onDelete={() => onChange((q) => ({ ...q, answers: q.answers.filter((x) => x.key !== a.key) }))}
            />
          ))}
        </Stack>
        <Box>
          <Button
            variant="subtle"
            size="compact-sm"
            leftSection={<IconPlus size={14} aria-hidden="true" />}
            onClick={() => onChange((q) => ({ ...q, answers: [...q.answers, newAnswer()] }))}
          >
            {T.addAnswer}
          </Button>
        </Box>
      </Stack>
    </Paper>
  );
}

/** One question's figures in one wrapping line: answered, right answers, the usual mistake, the time. */
function QuestionFigures({ statistic, label }: { statistic: QuestionStatistic; label: string }) {
  const { answered, correct_percent: percent, top_wrong_option: wrong, average_seconds: seconds } = statistic;
  return (
    <Group gap="xs" wrap="wrap" role="group" aria-label={label} data-testid="question-statistics">
      <Badge variant="light" color="gray" radius="sm" tt="none">
        {T.statsAnswered(answered)}
      </Badge>
      {percent !== null && (
        <Badge
          variant="light"
          color={correctColor(percent)}
          c={readableOnLight(correctColor(percent))}
          radius="sm"
          tt="none"
        >
          {T.statsCorrect(percent)}
        </Badge>
      )}
      {wrong && (
        <Text size="xs" c="dimmed" style={{ wordBreak: 'break-word' }}>
          {T.statsTopWrong(wrong.text, wrong.count)}
        </Text>
      )}
      {seconds !== null && (
        <Text size="xs" c="dimmed">
          {T.statsAverageTime(formatAnswerTime(seconds))}
        </Text>
      )}
    </Group>
  );
}

/**
 * The text of a light badge: shade 9 alone is below 4.5:1 on the light green and orange
 * backgrounds (WCAG AA for small text); darkened by a fifth it meets it.
 */
const readableOnLight = (color: string) => `color-mix(in srgb, var(--mantine-color-${color}-9) 80%, black)`;

/** The figures of questions no longer in the test, with the text they had: collapsed by default. */
function DeletedQuestions({ questions }: { questions: QuestionStatistic[] }) {
  return (
    <Accordion variant="contained" radius="md" chevronPosition="left" data-testid="deleted-questions">
      <Accordion.Item value="deleted">
        <Accordion.Control>
          <Text size="sm" fw={600}>
            {T.statsDeletedQuestions} ({questions.length})
          </Text>
        </Accordion.Control>
        <Accordion.Panel>
          <Stack gap="sm">
            {questions.map((q) => (
              <Stack key={q.question_id} gap={4}>
                <Text size="sm" style={{ wordBreak: 'break-word' }}>
                  {q.question_text}
                </Text>
                <QuestionFigures statistic={q} label={T.statsDeletedQuestion} />
              </Stack>
            ))}
          </Stack>
        </Accordion.Panel>
      </Accordion.Item>
    </Accordion>
  );
}

interface AnswerRowProps {
  answer: DraftAnswer;
  question: number;
  number: number;
  image: boolean;
  multiple: boolean;
  deletable: boolean;
  onCorrect: (correct: boolean) => void;
  onChange: (update: (a: DraftAnswer) => DraftAnswer) => void;
  onDelete: () => void;
}

function AnswerRow({
  answer,
  question,
  number,
  image,
  multiple,
  deletable,
  onCorrect,
  onChange,
  onDelete,
}: AnswerRowProps) {
  const [problem, setProblem] = useState<string | null>(null);
  const preview = useObjectUrl(answer.file);
  const src = preview ?? (answer.imagePath ? storagePath(answer.imagePath) : null);
  const correctLabel = T.correctAnswer(number);

  const choose = (file: File | null) => {
    if (!file) return;
    const why = imageFileProblem(file);
    setProblem(why);
    if (!why) onChange((a) => ({ ...a, file }));
  };

  return (
    <Stack gap={4} data-testid="answer">
      <Group gap="sm" wrap="nowrap" align="center">
        {multiple ? (
          <Checkbox
            checked={answer.correct}
            onChange={(e) => onCorrect(e.currentTarget.checked)}
            aria-label={correctLabel}
            color="green"
          />
        ) : (
          <Radio
            checked={answer.correct}
            onChange={(e) => onCorrect(e.currentTarget.checked)}
            aria-label={correctLabel}
            color="green"
          />
        )}
        {image && (
          <Box
            w={56}
            h={56}
            style={{
              flexShrink: 0,
              borderRadius: 8,
              overflow: 'hidden',
              border: '1px solid var(--mantine-color-gray-3)',
              display: 'grid',
              placeItems: 'center',
              background: 'var(--mantine-color-white)',
            }}
          >
            {src ? (
              <Image src={src} alt={T.answerImage(number)} w={56} h={56} fit="cover" />
            ) : (
              <IconPhoto size={22} color="var(--mantine-color-gray-5)" aria-hidden="true" />
            )}
          </Box>
        )}
        <TextInput
          flex={1}
          miw={0}
          value={answer.text}
          onChange={(e) => {
            const text = limitText(e.currentTarget.value);
            onChange((a) => ({ ...a, text }));
          }}
          placeholder={T.answer(number)}
          aria-label={T.answerOf(question, number)}
          maxLength={QUESTION_TEXT_MAX}
          autoComplete="off"
        />
        {image && (
          <FileButton onChange={choose} accept={IMAGE_ACCEPT}>
            {(props) => (
              <Button
                {...props}
                variant="default"
                size="sm"
                leftSection={<IconPhoto size={14} aria-hidden="true" />}
                aria-label={`${src ? T.replaceAnswerImage : T.chooseAnswerImage}: ${T.answerOf(question, number)}`}
              >
                {src ? T.replaceAnswerImage : T.chooseAnswerImage}
              </Button>
            )}
          </FileButton>
        )}
        {image && src && (
          <ActionIcon
            variant="subtle"
            color="gray"
            onClick={() => onChange((a) => ({ ...a, file: null, imagePath: null }))}
            aria-label={`${T.removeAnswerImage}: ${T.answerOf(question, number)}`}
          >
            <IconX size={16} aria-hidden="true" />
          </ActionIcon>
        )}
        <Tooltip label={T.lastAnswerHint} disabled={deletable} position="top" openDelay={200} closeDelay={200}>
          <ActionIcon
            variant="subtle"
            color="red"
            onClick={onDelete}
            disabled={!deletable}
            aria-label={`${T.deleteAnswer(number)} (${T.question(question)})`}
          >
            <IconTrash size={16} aria-hidden="true" />
          </ActionIcon>
        </Tooltip>
      </Group>
      {problem && (
        <Text size="xs" c="red" role="alert">
          {problem}
        </Text>
      )}
    </Stack>
  );
}

/** A preview address of a chosen file, revoked when it changes or goes away. */
function useObjectUrl(file: File | null): string | null {
  const url = useMemo(
    () => (file && typeof URL.createObjectURL === 'function' ? URL.createObjectURL(file) : null),
    [file],
  );
  useEffect(
    () => () => {
      if (url) URL.revokeObjectURL(url);
    },
    [url],
  );
  return url;
}
