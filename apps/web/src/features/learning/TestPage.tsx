import { ActionIcon, Group, Stack, Text, Title, Tooltip } from '@mantine/core';
import { IconX } from '@tabler/icons-react';
import type { AttemptView } from '@lms/contract';
import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import { useNavigate, useParams } from 'react-router';
import { Link } from '../../shared/Link';
import { isNotFound } from '../../lib/errors';
import { toastError, toastSuccess } from '../../shared/toast';
import { ContentsDrawer } from './ContentsDrawer';
import { ItemNav } from './ItemNav';
import { parseId } from './params';
import { blockedUntilOf, useStartAttempt, useTest, type LearnerTestAnswer } from './queries';
import { BackLink, LoadError, Loading, Missing } from './states';
import { TIMEOUT_REDIRECT_MS, deadlineOnDevice, readStoredAttempt, startErrorText, storeAttempt } from './testLogic';
import { TestIntro } from './TestIntro';
import { TestTaking } from './TestTaking';
import { TEST_TEXTS as T } from './testTexts';
import { LEARNING_TEXTS as L } from './texts';
import { useSecondsLeft } from './useCountdown';

interface TestIds {
  courseId: number;
  testId: number;
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

  // After an automatic finish the learner returns to the course page in 2 s (docs/product.md §Test taking).
  useEffect(() => {
    if (!timedOut) return;
    const timer = window.setTimeout(() => void navigate(coursePath), TIMEOUT_REDIRECT_MS);
    return () => window.clearTimeout(timer);
  }, [timedOut, navigate, coursePath]);

  useEffect(() => {
    // A missing test is said on the page itself, once.
    if (test.isError && !isNotFound(test.error)) toastError(T.loadError);
  }, [test.isError, test.error]);

  // An attempt kept in this browser and still open is continued with no start call (docs/product.md §Test taking).
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
  const taking = !!shown;
  // The countdown runs to the attempt's deadline on the server's clock (issue 30); when the page
  // comes back (tab shown, phone woken) the test is asked for again, which also re-reads the clocks.
  const deadline =
    shown && shown.data.test.has_timer
      ? deadlineOnDevice(shown.attempt, shown.data.test.timer_seconds, shown.data.server_time, shown.loadedAt)
      : null;
  const refetch = test.refetch;
  const onWake = useCallback(() => void refetch({ cancelRefetch: false }), [refetch]);
  const left = useSecondsLeft(deadline, onWake);
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
    body = <TestIntro data={test.data} starting={start.isPending} onStart={onStart} />;
  }

  if (isNotFound(test.error)) return <Missing error={test.error} fallback={L.testMissing} courseId={courseId} />;

  return (
    <Stack gap="lg" maw={960}>
      {taking ? null : <BackLink to={coursePath}>{L.toCourse}</BackLink>}
      {data ? (
        <Group justify="space-between" align="flex-start" gap="md">
          <Title order={1} fz={{ base: 22, sm: 28 }} style={{ flex: '1 1 320px' }}>
            {data.test.name}
          </Title>
          <Group gap="sm" wrap="wrap">
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

/** Test introduction and test taking /courses/{id}/test/{testId} (docs/product.md §Test taking). */
export default function TestPage() {
  const params = useParams();
  const courseId = parseId(params.courseId);
  const testId = parseId(params.testId);
  if (courseId === null || testId === null) return <Text c="red">{L.courseIdMissing}</Text>;
  return <TestView key={`${courseId}-${testId}`} courseId={courseId} testId={testId} />;
}
