import { Badge, Checkbox, Group, Image, Radio, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconCircleCheckFilled, IconCircleXFilled } from '@tabler/icons-react';
import type { AttemptQuestion } from '@lms/contract';
import classes from './Test.module.css';
import { TEST_TEXTS as T } from './testTexts';

interface QuestionCardProps {
  question: AttemptQuestion;
  /** Its number in the attempt, from 1. */
  number: number;
  total: number;
  selected: readonly number[];
  onChoose?: (optionId: number) => void;
  /** Options cannot be changed (answered, time is up, review). */
  readOnly: boolean;
  /** Review mode: correct options are marked, wrong selected ones marked incorrect (docs/product.md §Test taking). */
  review?: boolean;
  /** 'Вопрос N из M' above the question (the review page shows it with its progress bar instead). */
  showNumber?: boolean;
}

type Mark = 'correct' | 'wrong' | 'selected' | null;

function markOf(option: AttemptQuestion['options'][number], review: boolean): Mark {
  if (!review) return null;
  if (option.is_correct === true) return 'correct';
  if (option.is_selected && option.is_correct === false) return 'wrong';
  if (option.is_selected) return 'selected';
  return null;
}

function MarkBadge({ mark }: { mark: Mark }) {
  if (mark === 'correct') {
    return (
      <Badge color="green" variant="light" leftSection={<IconCircleCheckFilled size={14} aria-hidden />}>
        {T.correctOption}
      </Badge>
    );
  }
  if (mark === 'wrong') {
    return (
      <Badge color="red" variant="light" leftSection={<IconCircleXFilled size={14} aria-hidden />}>
        {T.wrongOption}
      </Badge>
    );
  }
  if (mark === 'selected') {
    return (
      <Badge color="gray" variant="light">
        {T.selectedOption}
      </Badge>
    );
  }
  return null;
}

/** One question with its text or image options, single or multiple choice (docs/product.md §Test taking). */
export function QuestionCard({
  question,
  number,
  total,
  selected,
  onChoose,
  readOnly,
  review = false,
  showNumber = true,
}: QuestionCardProps) {
  const name = `question-${question.id}`;
  const isImage = question.type === 'image';
  const options = question.options.map((option, index) => {
    const checked = review ? option.is_selected : selected.includes(option.id);
    const mark = markOf(option, review);
    const label = isImage ? (question.labels[index] ?? '') : option.value;
    const body = (
      <Group wrap="nowrap" align="flex-start" gap="sm" w="100%">
        {question.multiple ? <Checkbox.Indicator /> : <Radio.Indicator />}
        <Stack gap={6} style={{ flex: 1, minWidth: 0 }}>
          {isImage ? (
            <Image
              src={option.value}
              alt={label || T.questionNumber(index + 1)}
              radius="sm"
              h={160}
              fit="contain"
              className={classes.optionImage}
            />
          ) : null}
          {label ? <Text className={classes.optionText}>{label}</Text> : null}
          <MarkBadge mark={mark} />
        </Stack>
      </Group>
    );
    const common = {
      name,
      checked,
      disabled: readOnly,
      onClick: readOnly ? undefined : () => onChoose?.(option.id),
      className: classes.option,
      'data-mark': mark ?? undefined,
      p: 'md',
      radius: 'md',
    } as const;
    return question.multiple ? (
      <Checkbox.Card key={option.id} {...common}>
        {body}
      </Checkbox.Card>
    ) : (
      <Radio.Card key={option.id} {...common}>
        {body}
      </Radio.Card>
    );
  });
  return (
    <Stack gap="md">
      <Stack gap={4}>
        {showNumber ? (
          <Text size="sm" c="dimmed" fw={500}>
            {T.questionOf(number, total)}
          </Text>
        ) : null}
        <Title order={2} fz={{ base: 18, sm: 22 }} id={`${name}-title`} className={classes.questionText}>
          {question.question}
        </Title>
        <Text size="sm" c="dimmed">
          {question.multiple ? T.multiple : T.single}
        </Text>
      </Stack>
      <div role={question.multiple ? 'group' : 'radiogroup'} aria-labelledby={`${name}-title`}>
        <SimpleGrid cols={isImage ? { base: 1, xs: 2, md: 3 } : 1} spacing="sm">
          {options}
        </SimpleGrid>
      </div>
    </Stack>
  );
}
