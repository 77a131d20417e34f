import { ActionIcon, Alert, Anchor, Button, Group, Paper, Stack, Table, Text, Title, Tooltip } from '@mantine/core';
import { IconAlertTriangle, IconArrowLeft, IconClockHour4, IconInfoCircle, IconLock, IconX } from '@tabler/icons-react';
import type { AttemptView, LearnerTest } from '@lms/contract';
import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import { useNavigate, useParams } from 'react-router';
import { Link } from '../../shared/Link';
import { isNotFound, serverMessage } from '../../lib/errors';
import { formatDateTime, formatDuration } from '../../lib/lessonTime';
import { toastError, toastSuccess } from '../../shared/toast';
import { ContentsDrawer } from './ContentsDrawer';
import { ItemNav } from './ItemNav';
import { parseId } from './params';
import { QuestionCard } from './QuestionCard';
import {
  blockedUntilOf,
  useFinishAttempt,
  useSaveAnswer,
  useStartAttempt,
  useTest,
  type LearnerTestAnswer,
} from './queries';
import { Loading, LoadError, Missing } from './states';
import classes from './Test.module.css';
import {
  TIMEOUT_REDIRECT_MS,
  choose,
  durationText,
  firstUnanswered,
  percentText,
  questionsText,
  readStoredAttempt,
  remainingSeconds,
  startErrorText,
  storeAttempt,
  waitText,
} from './testLogic';
import { TEST_TEXTS as T } from './testTexts';
import { LEARNING_TEXTS as L, SUCCESS_GREEN } from './texts';
import { useCountdown, useNow } from './useCountdown';

interface TestIds {
  courseId: number;
  testId: number;
}

/** The introduction's rows: only values above 0 (spec 02 §2 "Test introduction"). */
export function introRows(test: LearnerTest): { label: string; value: string }[] {
  const rows: { label: string; value: string }[] = [];
  if (test.questions_count > 0) rows.push({ label: T.questionsCount, value: questionsText(test.questions_count) });
  if (test.has_timer && test.timer_seconds > 0)
    rows.push({ label: T.timeLimit, value: durationText(test.timer_seconds) });
  if (test.passing_score > 0) rows.push({ label: T.passingScore, value: percentText(test.passing_score) });
  if (test.retake_interval_seconds > 0) {
    rows.push({ label: T.retakeInterval, value: durationText(test.retake_interval_seconds) });
  }
  if (test.has_attempts_limit && test.max_attempts > 0) {
    rows.push({ label: T.maxAttempts, value: String(test.max_attempts) });
  }
  return rows;
}

function History({ attempts, passingScore }: { attempts: AttemptView[]; passingScore: number }) {
  if (attempts.length === 0) return null;
  return (
    <Paper withBorder p={{ base: 'sm', sm: 'lg' }} radius="lg">
      <Title order={2} fz="lg" mb="sm">
        {T.history}
      </Title>
      <Table.ScrollContainer minWidth={560}>
        <Table striped verticalSpacing="xs" data-testid="attempt-history">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{T.attemptNumber}</Table.Th>
              <Table.Th>{T.status}</Table.Th>
              <Table.Th>{T.finishedAt}</Table.Th>
              <Table.Th>{T.timeSpent}</Table.Th>
              <Table.Th>{T.result}</Table.Th>
              <Table.Th>{T.passingScore}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {attempts.map((a) => (
              <Table.Tr key={a.id}>
                <Table.Td>{a.attempt_number}</Table.Td>
                <Table.Td>
                  <Text span c={a.is_passed ? 'green.8' : 'red.8'} fw={600} size="sm">
                    {a.is_passed ? T.passed : T.failed}
                  </Text>
                </Table.Td>
                <Table.Td>{a.finished_at ? formatDateTime(a.finished_at) : ''}</Table.Td>
                <Table.Td>{formatDuration(a.duration_seconds ?? a.elapsed_seconds)}</Table.Td>
                <Table.Td>{`${a.score ?? 0}%`}</Table.Td>
                <Table.Td>{`${passingScore}%`}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Paper>
  );
}

function BlockedNotice({ blockedUntil }: { blockedUntil: string | null }) {
  const now = useNow(blockedUntil !== null);
  return (
    <Alert color="red" variant="light" icon={<IconLock size={20} />} title={T.blocked} data-testid="test-blocked">
      {blockedUntil === null ? (
        <Stack gap={4}>
          <Text fw={600}>{T.forever}</Text>
          <Text>{T.exhausted}</Text>
        </Stack>
      ) : (
        <Text>{T.blockedWait(waitText(blockedUntil, now))}</Text>
      )}
    </Alert>
  );
}

interface IntroProps extends TestIds {
  data: LearnerTestAnswer;
  starting: boolean;
  onStart: () => void;
}

function TestIntro({ data, starting, onStart }: IntroProps) {
  const test = data.test;
  const hasOpen = test.active_attempts.length > 0;
  const blockedUntil = test.is_blocked ? (test.blocked_until ?? null) : undefined;
  const now = useNow(typeof blockedUntil === 'string');
  const waitOver = typeof blockedUntil === 'string' && Date.parse(blockedUntil) <= now.getTime();
  const blocked = blockedUntil !== undefined && !waitOver;
  const empty = !hasOpen && test.questions_count === 0;
  const rows = introRows(test);
  return (
    <Stack gap="lg">
      <Paper withBorder p={{ base: 'md', sm: 'xl' }} radius="lg">
        <Stack gap="md">
          {rows.length > 0 ? (
            <Table variant="vertical" withRowBorders={false} verticalSpacing={6} data-testid="test-intro">
              <Table.Tbody>
                {rows.map((row) => (
                  <Table.Tr key={row.label}>
                    <Table.Th w={260} fw={500} c="dimmed">
                      {row.label}
                    </Table.Th>
                    <Table.Td fw={600}>{row.value}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          ) : null}
          {hasOpen ? (
            <Alert color="blue" variant="light" icon={<IconInfoCircle size={20} />}>
              {T.unfinished}
            </Alert>
          ) : null}
          {blocked ? <BlockedNotice blockedUntil={blockedUntil} /> : null}
          {empty ? (
            <Alert color="orange" variant="light" icon={<IconAlertTriangle size={20} />} title={T.cannotStart}>
              {T.emptyHint}
            </Alert>
          ) : null}
          <Group>
            {empty ? (
              <Button disabled>{T.unavailable}</Button>
            ) : blocked ? null : (
              <Button color={SUCCESS_GREEN} size="md" onClick={onStart} loading={starting}>
                {hasOpen ? T.continue : T.start}
              </Button>
            )}
          </Group>
        </Stack>
      </Paper>
      <History attempts={test.attempts} passingScore={test.passing_score} />
    </Stack>
  );
}

interface TakingProps extends TestIds {
  data: LearnerTestAnswer;
  attempt: AttemptView;
  /** Seconds left, null without a timer. */
  left: number | null;
  /** The attempt was finished because its time ran out. */
  onTimedOut: () => void;
}

function Navigator({
  count,
  current,
  isAnswered,
  onPick,
}: {
  count: number;
  current: number;
  isAnswered: (index: number) => boolean;
  onPick: (index: number) => void;
}) {
  return (
    <nav aria-label={T.navigator} className={classes.navigator}>
      {Array.from({ length: count }, (_, i) => (
        <Button
          key={i}
          size="compact-md"
          miw={40}
          variant={i === current ? 'filled' : isAnswered(i) ? 'light' : 'default'}
          color={i !== current && isAnswered(i) ? 'green' : undefined}
          aria-label={T.questionNumber(i + 1)}
          aria-current={i === current ? 'step' : undefined}
          onClick={() => onPick(i)}
        >
          {i + 1}
        </Button>
      ))}
    </nav>
  );
}

function TestTaking({ courseId, testId, data, attempt, left, onTimedOut }: TakingProps) {
  const navigate = useNavigate();
  const questions = data.test.questions;
  const [index, setIndex] = useState(() => firstUnanswered(questions));
  const [choices, setChoices] = useState<Record<number, number[]>>({});
  const [saved, setSaved] = useState<ReadonlySet<number>>(() => new Set());
  const save = useSaveAnswer();
  const finish = useFinishAttempt();
  const expired = left === 0;
  const autoFinished = useRef(false);

  // The countdown reached zero: the attempt is finished and the learner goes back to the course.
  useEffect(() => {
    if (!expired || autoFinished.current) return;
    autoFinished.current = true;
    finish.mutate(attempt.id, {
      onSuccess: () => {
        storeAttempt(testId, null);
        toastError(T.timeIsUp);
        onTimedOut();
      },
      onError: () => toastError(T.autoFinishError),
    });
  }, [expired, attempt.id, testId, finish, onTimedOut]);

  if (questions.length === 0) {
    return (
      <Alert color="orange" variant="light" icon={<IconAlertTriangle size={20} />}>
        {T.notFilled}
      </Alert>
    );
  }

  const at = Math.min(index, questions.length - 1);
  const question = questions[at];
  if (!question) return null;
  const isAnswered = (i: number) => {
    const q = questions[i];
    return !!q && (q.isAnswered || saved.has(q.id));
  };
  const answered = isAnswered(at);
  const selected = answered
    ? (choices[question.id] ?? question.options.filter((o) => o.is_selected).map((o) => o.id))
    : (choices[question.id] ?? []);
  const isLast = at === questions.length - 1;

  const finishNow = (attemptId: number | null) => {
    if (attemptId === null) {
      toastError(T.noAttempt);
      return;
    }
    finish.mutate(attemptId, {
      onSuccess: () => {
        storeAttempt(testId, null);
        toastSuccess(T.finished);
        void navigate(`/courses/${courseId}/test/${testId}/${attemptId}`);
      },
      onError: () => toastError(T.finishError),
    });
  };
  const goNext = () => {
    if (isLast) finishNow(attempt.id);
    else setIndex(at + 1);
  };
  const onAnswer = () => {
    if (selected.length === 0) return;
    save.mutate(
      { attemptId: attempt.id, questionId: question.id, optionIds: [...selected] },
      {
        onSuccess: () => {
          setSaved((s) => new Set(s).add(question.id));
          goNext();
        },
        onError: (error) => {
          const message = serverMessage(error);
          if (message) toastError(message);
          else window.alert(T.saveFailed);
        },
      },
    );
  };
  const busy = save.isPending || finish.isPending;

  return (
    <Stack gap="md">
      <Navigator count={questions.length} current={at} isAnswered={isAnswered} onPick={setIndex} />
      <Paper withBorder p={{ base: 'md', sm: 'xl' }} radius="lg">
        <Stack gap="lg">
          <QuestionCard
            key={question.id}
            question={question}
            number={at + 1}
            total={questions.length}
            selected={selected}
            readOnly={answered || expired || busy}
            onChoose={(id) =>
              setChoices((c) => ({ ...c, [question.id]: choose(c[question.id] ?? [], id, question.multiple) }))
            }
          />
          {expired ? (
            <Alert color="red" variant="light" icon={<IconClockHour4 size={20} />} title={T.expired} role="alert">
              {T.autoFinish}
            </Alert>
          ) : answered ? (
            <Group justify="space-between">
              <Text fw={500} c="green.8">
                {T.answered}
              </Text>
              <Button onClick={goNext} loading={finish.isPending}>
                {isLast ? T.finishTest : T.nextQuestion}
              </Button>
            </Group>
          ) : (
            <Group justify="flex-end" gap="sm">
              <Button variant="default" onClick={goNext} disabled={busy}>
                {T.skip}
              </Button>
              <Button
                color={SUCCESS_GREEN}
                onClick={onAnswer}
                disabled={selected.length === 0 || finish.isPending}
                loading={save.isPending}
                loaderProps={{ type: 'dots' }}
              >
                {save.isPending ? T.saving : T.answer}
              </Button>
            </Group>
          )}
        </Stack>
      </Paper>
    </Stack>
  );
}

function Countdown({ seconds }: { seconds: number }) {
  return (
    <Group gap={6} wrap="nowrap" aria-label={T.timeLeft} role="timer">
      <IconClockHour4 size={18} aria-hidden />
      <Text
        ff="monospace"
        fw={700}
        fz="lg"
        className={classes.timer}
        c={seconds <= 60 ? 'red.8' : undefined}
        data-testid="test-timer"
      >
        {formatDuration(seconds)}
      </Text>
    </Group>
  );
}

function TestView({ courseId, testId }: TestIds) {
  const test = useTest(courseId, testId);
  const start = useStartAttempt(testId);
  const [attemptId, setAttemptId] = useState<number | null>(null);
  const [contentsOpen, setContentsOpen] = useState(false);
  const [timedOut, setTimedOut] = useState(false);
  const resumed = useRef(false);
  const coursePath = `/courses/${courseId}`;
  const data = test.data;
  const navigate = useNavigate();

  // After an automatic finish the learner returns to the course page in 2 s (spec 02 §4, §9).
  useEffect(() => {
    if (!timedOut) return;
    const timer = window.setTimeout(() => void navigate(coursePath), TIMEOUT_REDIRECT_MS);
    return () => window.clearTimeout(timer);
  }, [timedOut, navigate, coursePath]);

  useEffect(() => {
    // A missing test is said on the page itself, once.
    if (test.isError && !isNotFound(test.error)) toastError(T.loadError);
  }, [test.isError, test.error]);

  // An attempt kept in this browser and still open is continued with no start call (spec 02 §4).
  useEffect(() => {
    if (!data || resumed.current) return;
    resumed.current = true;
    const stored = readStoredAttempt(testId);
    if (stored === null) return;
    if (data.test.active_attempts.some((a) => a.id === stored)) {
      setAttemptId(stored);
      toastSuccess(T.continued);
    } else storeAttempt(testId, null);
  }, [data, testId]);

  const onStart = () => {
    const stored = readStoredAttempt(testId);
    if (stored !== null && data?.test.active_attempts.some((a) => a.id === stored)) {
      setAttemptId(stored);
      toastSuccess(T.continued);
      return;
    }
    start.mutate(undefined, {
      onSuccess: (result) => {
        storeAttempt(testId, result.attempt.id);
        setAttemptId(result.attempt.id);
        toastSuccess(result.message === T.continued ? T.continued : T.started);
      },
      onError: (error) => {
        toastError(startErrorText(blockedUntilOf(error), new Date()));
        void test.refetch();
      },
    });
  };

  const open = data && attemptId !== null ? data.test.active_attempts.find((a) => a.id === attemptId) : undefined;
  // After an automatic finish the attempt is no longer open; its last view stays until the redirect.
  const held = useRef<{ data: LearnerTestAnswer; attempt: AttemptView; loadedAt: number } | null>(null);
  if (data && open) held.current = { data, attempt: open, loadedAt: test.dataUpdatedAt };
  const shown = open && data ? held.current : timedOut ? held.current : null;
  const attempt = shown?.attempt;
  const taking = !!shown;
  const left = useCountdown(
    shown && shown.data.test.has_timer
      ? remainingSeconds(shown.data.test.timer_seconds, shown.attempt.elapsed_seconds)
      : null,
    shown?.loadedAt,
  );
  const onTimedOut = useCallback(() => setTimedOut(true), []);

  let body: ReactNode;
  if (test.isPending) body = <Loading />;
  else if (test.isError) body = <LoadError error={test.error} />;
  else if (shown) {
    body = (
      <TestTaking
        key={shown.attempt.id}
        courseId={courseId}
        testId={testId}
        data={shown.data}
        attempt={shown.attempt}
        left={timedOut ? 0 : left}
        onTimedOut={onTimedOut}
      />
    );
  } else if (attemptId !== null && test.isFetching) body = <Loading />;
  else {
    body = (
      <TestIntro courseId={courseId} testId={testId} data={test.data} starting={start.isPending} onStart={onStart} />
    );
  }

  if (isNotFound(test.error)) return <Missing error={test.error} fallback={L.testMissing} courseId={courseId} />;

  return (
    <Stack gap="lg" maw={960}>
      {taking ? null : (
        <Anchor component={Link} to={coursePath} size="sm" fw={500}>
          <Group gap={6} wrap="nowrap" component="span">
            <IconArrowLeft size={16} aria-hidden />
            {L.toCourse}
          </Group>
        </Anchor>
      )}
      {data ? (
        <Group justify="space-between" align="flex-start" gap="md">
          <Title order={1} fz={{ base: 22, sm: 28 }} style={{ flex: '1 1 320px' }}>
            {data.test.name}
          </Title>
          <Group gap="sm" wrap="wrap">
            {attempt && left !== null ? <Countdown seconds={timedOut ? 0 : left} /> : null}
            <ItemNav
              courseId={courseId}
              previous={data.previous_item}
              next={data.next_item}
              onContents={() => setContentsOpen(true)}
            />
            {taking ? (
              <Tooltip label={T.closeTest}>
                <ActionIcon component={Link} to={coursePath} variant="default" size="lg" aria-label={T.closeTest}>
                  <IconX size={18} />
                </ActionIcon>
              </Tooltip>
            ) : null}
          </Group>
        </Group>
      ) : null}
      {body}
      <ContentsDrawer
        courseId={courseId}
        current={{ type: 'test', id: testId }}
        opened={contentsOpen}
        onClose={() => setContentsOpen(false)}
      />
    </Stack>
  );
}

/** Test introduction and test taking /courses/{id}/test/{testId} (spec 02 §2, §4). */
export default function TestPage() {
  const params = useParams();
  const courseId = parseId(params.courseId);
  const testId = parseId(params.testId);
  if (courseId === null || testId === null) return <Text c="red">{L.courseIdMissing}</Text>;
  return <TestView key={`${courseId}-${testId}`} courseId={courseId} testId={testId} />;
}
