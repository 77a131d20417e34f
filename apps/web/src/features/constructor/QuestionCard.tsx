import { QUESTION_TEXT_MAX, type QuestionStatistic } from '@lms/contract';
import {
  Accordion,
  ActionIcon,
  Badge,
  Box,
  Button,
  Checkbox,
  FileButton,
  Group,
  Image,
  Paper,
  Radio,
  SegmentedControl,
  Stack,
  Text,
  Textarea,
  TextInput,
  Tooltip,
} from '@mantine/core';
import { IconPhoto, IconPlus, IconTrash, IconX } from '@tabler/icons-react';
import { useEffect, useMemo, useState } from 'react';
import { MoveArrows } from './MoveArrows';
import { IMAGE_ACCEPT, imageFileProblem, storagePath } from './logic';
import {
  canDeleteAnswer,
  limitText,
  markCorrect,
  newAnswer,
  setMultiple,
  type DraftAnswer,
  type DraftQuestion,
} from './testRules';
import { correctColor, formatAnswerTime } from './testStatistics';
import { T } from './texts';

/* One question of the test page (docs/product.md §Test authoring): its text, answer type, answers and the authors' figures. */

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

export function QuestionCard({ question, number, count, statistic, onChange, onMove, onDelete }: QuestionCardProps) {
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
            <MoveArrows
              icons="arrow"
              upLabel={T.questionUp(number)}
              downLabel={T.questionDown(number)}
              upDisabled={number === 1}
              downDisabled={number === count}
              onMove={onMove}
            />
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
export function DeletedQuestions({ questions }: { questions: QuestionStatistic[] }) {
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
