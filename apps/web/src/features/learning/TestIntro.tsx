import { Alert, Button, Group, Paper, Stack, Table, Text } from '@mantine/core';
import { IconAlertTriangle, IconCircleCheck, IconInfoCircle, IconLock } from '@tabler/icons-react';
import type { AttemptView, LearnerTest } from '@lms/contract';
import { AttemptHistory } from './AttemptHistory';
import type { LearnerTestAnswer } from './queries';
import { dateAndTime, durationText, percentText, questionsText, waitText } from './testLogic';
import { TEST_TEXTS as T } from './testTexts';
import { SUCCESS_GREEN } from './texts';
import { useNow } from './useCountdown';

/** The introduction's rows: only values above 0 (docs/product.md §Test introduction). */
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

function BlockedNotice({ blockedUntil, now }: { blockedUntil: string | null; now: Date }) {
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

/**
 * The learner has passed (issue 30): the pass, with its result and date, stands in for the block — a
 * test passed with its last attempt is done, not 'заблокирован навсегда'. A wait before another
 * attempt still shows.
 */
function PassedNotice({ attempt, wait }: { attempt: AttemptView; wait: string | null }) {
  const when = attempt.finished_at ? dateAndTime(attempt.finished_at) : null;
  return (
    <Alert
      color="green"
      variant="light"
      icon={<IconCircleCheck size={20} />}
      title={
        <Text span fw={700} c={SUCCESS_GREEN}>
          {T.testPassed}
        </Text>
      }
      data-testid="test-passed"
    >
      <Stack gap={4}>
        <Text fw={600}>{T.passedScore(attempt.score ?? 0)}</Text>
        {when ? <Text>{T.passedAt(when.date, when.time)}</Text> : null}
        {wait !== null ? (
          <Text size="sm" c="dimmed">
            {T.blockedWait(wait)}
          </Text>
        ) : null}
      </Stack>
    </Alert>
  );
}

interface IntroProps {
  data: LearnerTestAnswer;
  starting: boolean;
  onStart: () => void;
}

/** Test introduction (docs/product.md §Test introduction): rows, notices, the start button and the attempt history. */
export function TestIntro({ data, starting, onStart }: IntroProps) {
  const test = data.test;
  const hasOpen = test.active_attempts.length > 0;
  const blockedUntil = test.is_blocked ? (test.blocked_until ?? null) : undefined;
  const now = useNow(typeof blockedUntil === 'string');
  const waitOver = typeof blockedUntil === 'string' && Date.parse(blockedUntil) <= now.getTime();
  const blocked = blockedUntil !== undefined && !waitOver;
  const empty = !hasOpen && test.questions_count === 0;
  const passed = test.passed_attempt;
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
          {passed ? (
            <PassedNotice
              attempt={passed}
              wait={blocked && typeof blockedUntil === 'string' ? waitText(blockedUntil, now) : null}
            />
          ) : blocked ? (
            <BlockedNotice blockedUntil={blockedUntil} now={now} />
          ) : null}
          {empty ? (
            <Alert color="orange" variant="light" icon={<IconAlertTriangle size={20} />} title={T.cannotStart}>
              {T.emptyHint}
            </Alert>
          ) : null}
          {empty ? (
            <Group>
              <Button disabled>{T.unavailable}</Button>
            </Group>
          ) : blocked ? null : (
            <Group>
              <Button color={SUCCESS_GREEN} size="md" onClick={onStart} loading={starting}>
                {hasOpen ? T.continue : T.start}
              </Button>
            </Group>
          )}
        </Stack>
      </Paper>
      <AttemptHistory attempts={test.attempts} />
    </Stack>
  );
}
