import { Alert, Button, Group, Progress, Stack, Text, Title } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { useState } from 'react';
import { useParams } from 'react-router';
import { QuestionCard } from './QuestionCard';
import { attemptIds, type AttemptIds } from './params';
import { useAttemptResult } from './queries';
import { BackLink, errorText, Loading, PageCard } from './states';
import { TEST_TEXTS as T } from './testTexts';
import { LEARNING_TEXTS as L } from './texts';

function ReviewView({ courseId, testId, attemptId }: AttemptIds) {
  const query = useAttemptResult(courseId, testId, attemptId);
  const [index, setIndex] = useState(0);
  const questions = query.data?.questions ?? [];
  const total = questions.length;
  const at = Math.min(index, Math.max(total - 1, 0));
  const question = questions[at];
  return (
    <Stack gap="lg" maw={960}>
      <BackLink to={`/courses/${courseId}`}>{T.back}</BackLink>
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
            <PageCard>
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
            </PageCard>
          ) : (
            <Text c="dimmed">{T.notFilled}</Text>
          )}
        </>
      )}
    </Stack>
  );
}

/** Answers review /courses/{id}/test/{testId}/{attemptId}/result (docs/product.md §Answers review). */
export default function AnswersReviewPage() {
  const ids = attemptIds(useParams());
  if (ids === null) return <Text c="red">{L.courseIdMissing}</Text>;
  return <ReviewView key={`${ids.courseId}-${ids.testId}-${ids.attemptId}`} {...ids} />;
}
