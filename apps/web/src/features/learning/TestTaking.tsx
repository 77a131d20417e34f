import { Alert, Button, Group, Loader, Stack, Text } from '@mantine/core';
import { IconAlertTriangle, IconClockHour4 } from '@tabler/icons-react';
import type { AttemptView } from '@lms/contract';
import { useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { serverMessage } from '../../lib/errors';
import { formatDuration } from '../../lib/lessonTime';
import { toastError, toastSuccess } from '../../shared/toast';
import { ConfirmModal } from './ConfirmModal';
import { QuestionCard } from './QuestionCard';
import { PageCard } from './states';
import { useFinishAttempt, useSaveAnswer, type LearnerTestAnswer } from './queries';
import classes from './Test.module.css';
import { choose, firstUnanswered, nextUnanswered, questionsText, storeAttempt } from './testLogic';
import { TEST_TEXTS as T } from './testTexts';
import { SUCCESS_GREEN } from './texts';

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

interface TakingProps {
  courseId: number;
  testId: number;
  data: LearnerTestAnswer;
  attempt: AttemptView;
  /** Seconds left, null without a timer. */
  left: number | null;
  /** The attempt was finished because its time ran out. */
  onTimedOut: () => void;
}

/**
 * Test taking (docs/product.md §Test taking, issue 30): one question at a time. An answer or 'Пропустить' leads to
 * the next unanswered question, round to skipped ones; the attempt ends when every question is
 * answered, when the learner confirms finishing with some unanswered, or when the time runs out.
 */
export function TestTaking({ courseId, testId, data, attempt, left, onTimedOut }: TakingProps) {
  const navigate = useNavigate();
  const questions = data.test.questions;
  const [index, setIndex] = useState(() => firstUnanswered(questions));
  const [choices, setChoices] = useState<Record<number, number[]>>({});
  const [saved, setSaved] = useState<ReadonlySet<number>>(() => new Set());
  const [confirming, setConfirming] = useState(false);
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
  const answeredFlags = questions.map((q) => q.isAnswered || saved.has(q.id));
  const isAnswered = (i: number) => answeredFlags[i] ?? false;
  const unanswered = answeredFlags.filter((a) => !a).length;
  const answered = isAnswered(at);
  const selected = answered
    ? (choices[question.id] ?? question.options.filter((o) => o.is_selected).map((o) => o.id))
    : (choices[question.id] ?? []);
  const busy = save.isPending || finish.isPending;

  const finishNow = () => {
    finish.mutate(attempt.id, {
      onSuccess: () => {
        storeAttempt(testId, null);
        toastSuccess(T.finished);
        void navigate(`/courses/${courseId}/test/${testId}/${attempt.id}`);
      },
      onError: () => {
        setConfirming(false);
        toastError(T.finishError);
      },
    });
  };
  /** 'Завершить тест': at once when all is answered, else after the learner confirms. */
  const askToFinish = () => (unanswered > 0 ? setConfirming(true) : finishNow());
  const onSkip = () => {
    const next = nextUnanswered(answeredFlags, at);
    if (next === null) setConfirming(true);
    else setIndex(next);
  };
  const onAnswer = () => {
    if (selected.length === 0 || busy) return;
    save.mutate(
      { attemptId: attempt.id, questionId: question.id, optionIds: [...selected] },
      {
        onSuccess: () => {
          setSaved((s) => new Set(s).add(question.id));
          const next = nextUnanswered(
            answeredFlags.map((a, i) => a || i === at),
            at,
          );
          if (next === null) finishNow();
          else setIndex(next);
        },
        onError: (error) => {
          const message = serverMessage(error);
          if (message) toastError(message);
          else window.alert(T.saveFailed);
        },
      },
    );
  };
  // From an answered question: the next unanswered one, else simply the next.
  const goNext = () => setIndex(nextUnanswered(answeredFlags, at) ?? (at + 1) % questions.length);

  return (
    <Stack gap="md">
      <div className={classes.takingBar} data-testid="test-bar">
        <Group justify="space-between" gap="sm" wrap="nowrap">
          <Group gap="md" wrap="nowrap">
            {left !== null ? <Countdown seconds={left} /> : null}
            {/* Left out on a phone, where the bar has room only for the time and the button. */}
            <Text size="sm" c="dimmed" className={classes.progress} visibleFrom="xs">
              {T.answeredOf(questions.length - unanswered, questions.length)}
            </Text>
          </Group>
          <Button variant="default" onClick={askToFinish} disabled={expired || busy}>
            {T.finishTest}
          </Button>
        </Group>
      </div>
      <Navigator count={questions.length} current={at} isAnswered={isAnswered} onPick={setIndex} />
      <PageCard>
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
            <Button onClick={goNext} disabled={busy}>
              {T.nextQuestion}
            </Button>
          </Group>
        ) : (
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={onSkip} disabled={busy}>
              {T.skip}
            </Button>
            {/*
                No `loading` and no `disabled` while saving: the loader would hide 'Сохранение...' and the
                disabled look grey it out (docs/product.md §Test taking); a second click is refused by `onAnswer`.
              */}
            <Button
              color={SUCCESS_GREEN}
              onClick={onAnswer}
              disabled={selected.length === 0 || finish.isPending}
              aria-disabled={save.isPending || undefined}
              leftSection={save.isPending ? <Loader size={14} color="currentColor" aria-hidden /> : undefined}
            >
              {save.isPending ? T.saving : T.answer}
            </Button>
          </Group>
        )}
      </PageCard>
      {/* Finishing with unanswered questions is confirmed first, saying how many (issue 30). */}
      <ConfirmModal
        opened={confirming && !expired}
        title={T.confirmFinishTitle}
        text={T.unanswered(questionsText(unanswered))}
        cancelLabel={T.backToQuestions}
        confirmLabel={T.finishTest}
        busy={finish.isPending}
        focus="cancel"
        closeButtonProps={{ 'aria-label': T.close }}
        onCancel={() => setConfirming(false)}
        onConfirm={finishNow}
      />
    </Stack>
  );
}
