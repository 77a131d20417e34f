import { Anchor, Button, Group, Paper, RingProgress, Stack, Text, Title } from '@mantine/core';
import { IconCircleCheckFilled, IconCircleXFilled } from '@tabler/icons-react';
import { useParams } from 'react-router';
import { Link } from '../../shared/Link';
import { formatDuration } from '../../lib/lessonTime';
import { itemLink } from './logic';
import { attemptIds, type AttemptIds } from './params';
import { useAttemptResult, type AttemptResult } from './queries';
import { BackLink, LoadError, Loading } from './states';
import { dateAndTime } from './testLogic';
import { TEST_TEXTS as T } from './testTexts';
import { LEARNING_TEXTS as L, SUCCESS_GREEN } from './texts';

type ResultIds = AttemptIds;

export interface ResultAction {
  label: string;
  to: string;
}

/**
 * The result page's buttons (docs/product.md §Test result): 'Следующее занятие' after a pass (the next
 * lesson or test, else home), 'Вернуться к тесту' after a fail, 'Посмотреть ответы' when the test
 * shows correct answers.
 */
export function resultActions(result: AttemptResult, ids: ResultIds): ResultAction[] {
  const actions: ResultAction[] = [];
  if (result.attempt.is_passed) {
    actions.push({ label: T.nextLesson, to: result.next_item ? itemLink(ids.courseId, result.next_item) : '/' });
  } else {
    actions.push({ label: T.backToTest, to: `/courses/${ids.courseId}/test/${ids.testId}` });
  }
  if (result.show_correct_answers) {
    actions.push({ label: T.showAnswers, to: `/courses/${ids.courseId}/test/${ids.testId}/${ids.attemptId}/result` });
  }
  return actions;
}

/** 'Попытка N из M' shows when the limit is above 1 and the test is not blocked. */
export const showsAttemptOf = (result: AttemptResult): boolean =>
  result.has_attempts_limit && result.max_attempts > 1 && !result.is_blocked;

function ResultView(ids: ResultIds) {
  const { courseId, testId, attemptId } = ids;
  const query = useAttemptResult(courseId, testId, attemptId);
  const result = query.data;
  const back = <BackLink to={`/courses/${courseId}`}>{L.toCourse}</BackLink>;
  if (query.isPending) return <Loading />;
  if (query.isError || !result) {
    return (
      <Stack gap="lg" maw={960}>
        {back}
        <LoadError error={query.error} />
      </Stack>
    );
  }
  const { attempt } = result;
  const passed = attempt.is_passed === true;
  const score = attempt.score ?? 0;
  const color = passed ? 'green.7' : 'red.7';
  const finished = attempt.finished_at ? dateAndTime(attempt.finished_at) : null;
  return (
    <Stack gap="lg" maw={960}>
      {back}
      <Paper withBorder p={{ base: 'md', sm: 'xl' }} radius="lg">
        <Stack gap="lg">
          <Stack gap={4}>
            <Title order={1} fz={{ base: 22, sm: 28 }}>
              {result.name}
            </Title>
            <Text c="dimmed">{T.resultTime(formatDuration(attempt.duration_seconds ?? attempt.elapsed_seconds))}</Text>
          </Stack>
          <Group gap="xl" align="center" wrap="wrap">
            <RingProgress
              size={160}
              thickness={16}
              roundCaps
              rootColor={passed ? 'green.1' : 'red.1'}
              sections={score > 0 ? [{ value: score, color }] : []}
              aria-label={`${T.score}: ${score}%`}
              label={
                <Text ta="center" fw={700} fz={28} c={color} data-testid="result-score">
                  {`${score}%`}
                </Text>
              }
            />
            <Stack gap={6}>
              <Group gap={8} wrap="nowrap">
                {passed ? (
                  <IconCircleCheckFilled size={24} color="var(--mantine-color-green-7)" aria-hidden />
                ) : (
                  <IconCircleXFilled size={24} color="var(--mantine-color-red-7)" aria-hidden />
                )}
                <Text fw={700} fz="xl" c={passed ? 'green.8' : 'red.8'}>
                  {passed ? T.testPassed : T.testFailed}
                </Text>
              </Group>
              <Text fw={500}>{T.correctOf(attempt.correct_answers ?? 0, result.questions_count)}</Text>
              {finished ? <Text c="dimmed">{T.passedAt(finished.date, finished.time)}</Text> : null}
              {showsAttemptOf(result) ? (
                <Group gap="sm">
                  <Text>{T.attemptOf(attempt.attempt_number, result.max_attempts)}</Text>
                  <Anchor component={Link} to={`/courses/${courseId}/test/${testId}`} fw={500}>
                    {T.retry}
                  </Anchor>
                </Group>
              ) : null}
            </Stack>
          </Group>
          <Text>{passed ? T.passedMessage : T.failedMessage}</Text>
          <Group gap="sm">
            {resultActions(result, ids).map((action, i) => (
              <Button
                key={action.label}
                component={Link}
                to={action.to}
                variant={i === 0 ? 'filled' : 'default'}
                color={i === 0 && passed ? SUCCESS_GREEN : undefined}
              >
                {action.label}
              </Button>
            ))}
          </Group>
        </Stack>
      </Paper>
    </Stack>
  );
}

/** Test result /courses/{id}/test/{testId}/{attemptId} (docs/product.md §Test result). */
export default function TestResultPage() {
  const ids = attemptIds(useParams());
  if (ids === null) return <Text c="red">{L.courseIdMissing}</Text>;
  return <ResultView key={`${ids.courseId}-${ids.testId}-${ids.attemptId}`} {...ids} />;
}
