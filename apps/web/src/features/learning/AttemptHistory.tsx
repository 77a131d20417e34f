import { Paper, Table, Text, Title } from '@mantine/core';
import type { AttemptView } from '@lms/contract';
import { formatDateTime, formatDuration } from '../../lib/lessonTime';
import { TEST_TEXTS as T } from './testTexts';
import { SUCCESS_GREEN } from './texts';

/**
 * Finished attempts (docs/product.md §Test introduction): number, status, date, time spent, result, and
 * the pass mark each attempt was graded against (an author may have changed the test's since).
 */
export function AttemptHistory({ attempts }: { attempts: AttemptView[] }) {
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
                  <Text span c={a.is_passed ? SUCCESS_GREEN : 'red.8'} fw={600} size="sm">
                    {a.is_passed ? T.passed : T.failed}
                  </Text>
                </Table.Td>
                <Table.Td>{a.finished_at ? formatDateTime(a.finished_at) : ''}</Table.Td>
                <Table.Td>{formatDuration(a.duration_seconds ?? a.elapsed_seconds)}</Table.Td>
                <Table.Td>{`${a.score ?? 0}%`}</Table.Td>
                <Table.Td>{`${a.passing_score}%`}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Paper>
  );
}
