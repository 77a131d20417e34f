import { Alert, Anchor, Button, Group, Paper, Progress, Stack, Text, Title } from '@mantine/core';
import { IconAlertCircle, IconArrowLeft } from '@tabler/icons-react';
import { useState } from 'react';
import { useParams } from 'react-router';
import { Link } from '../../shared/Link';
import { QuestionCard } from './QuestionCard';
import { parseId } from './params';
import { useAttemptResult } from './queries';
import { Loading, errorText } from './states';
import { TEST_TEXTS as T } from './testTexts';
import { LEARNING_TEXTS as L } from './texts';

interface ReviewIds {
  courseId: number;
  testId: number;
  attemptId: number;
}

function ReviewView({ courseId, testId, attemptId }: ReviewIds) {
  const query = useAttemptResult(courseId, testId, attemptId);
  const [index, setIndex] = useState(0);
  const questions = query.data?.questions ?? [];
  const total = questions.length;
  const at = Math.min(index, Math.max(total - 1, 0));
  const question = questions[at];
  return (
    <Stack gap="lg" maw={960}>
      <Anchor component={Link} to={`/courses/${courseId}`} size="sm" fw={500}>
        <Group gap={6} wrap="nowrap" component="span">
          <IconArrowLeft size={16} aria-hidden />
          {T.back}
        </Group>
      </Anchor>
      {query.isPending ? (
        <Loading />
      ) : query.isError ? (
        <Alert color="red" variant="light" icon={<IconAlertCircle size={22} aria-label="Ошибка" />} role="alert">
          {errorText(query.error)}
        </Alert>
      ) : (
        <>
          <Stack gap={6}>
            <Title order={1} fz={{ base: 22, sm: 28 }}>
              {query.data.name}
            </Title>
            <Text c="dimmed">{T.reviewTitle}</Text>
          </Stack>
          <Stack gap={4}>
            <Text size="sm" fw={500}>
              {T.questionOf(total > 0 ? at + 1 : 0, total)}
            </Text>
            <Progress
              value={total > 0 ? ((at + 1) / total) * 100 : 0}
              size="md"
              radius="xl"
              aria-label={T.questionOf(total > 0 ? at + 1 : 0, total)}
            />
          </Stack>
          {question ? (
            <Paper withBorder p={{ base: 'md', sm: 'xl' }} radius="lg">
              <Stack gap="lg">
                <QuestionCard
                  key={question.id}
                  question={question}
                  number={at + 1}
                  total={total}
                  selected={question.options.filter((o) => o.is_selected).map((o) => o.id)}
                  readOnly
                  review
                  showNumber={false}
                />
                <Group justify="space-between">
                  <Button variant="default" onClick={() => setIndex(at - 1)} disabled={at === 0}>
                    {T.back}
                  </Button>
                  <Button onClick={() => setIndex(at + 1)} disabled={at >= total - 1}>
                    {T.forward}
                  </Button>
                </Group>
              </Stack>
            </Paper>
          ) : (
            <Text c="dimmed">{T.notFilled}</Text>
          )}
        </>
      )}
    </Stack>
  );
}

/** Answers review /courses/{id}/test/{testId}/{attemptId}/result (spec 02 §2 "Answers review"). */
export default function AnswersReviewPage() {
  const params = useParams();
  const courseId = parseId(params.courseId);
  const testId = parseId(params.testId);
  const attemptId = parseId(params.attemptId);
  if (courseId === null || testId === null || attemptId === null) return <Text c="red">{L.courseIdMissing}</Text>;
  return (
    <ReviewView key={`${courseId}-${testId}-${attemptId}`} courseId={courseId} testId={testId} attemptId={attemptId} />
  );
}
