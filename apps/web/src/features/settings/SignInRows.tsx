import { SIGN_IN_FAILURE_LABELS, SIGN_IN_METHOD_LABELS, type SignInEntry } from '@lms/contract';
import { Badge, Group, Stack, Table, Text } from '@mantine/core';
import { formatSentAt } from './mailLog';
import { browserSummary } from './signIns';
import { SIGN_IN_TEXTS as S } from './signInTexts';

/** A row of the sign-in journal: on a desktop a cell a fact, on a phone all of them stacked in one cell. */

export interface SignInRowProps {
  entry: SignInEntry;
  timeZone: string | undefined;
}

const TOP = { verticalAlign: 'top' } as const;
const WRAP_ANYWHERE = { overflowWrap: 'anywhere' } as const;

function EntryTime({ entry, timeZone }: SignInRowProps) {
  return (
    <Text size="sm" component="time" dateTime={entry.at} style={{ whiteSpace: 'nowrap' }}>
      {formatSentAt(entry.at, timeZone)}
    </Text>
  );
}

/**
 * 'Успешно' green, 'Отказ' red: the light variant's text darkened to WCAG AA's 4.5:1 for small text,
 * as the audit tab's badges are.
 */
function ResultBadge({ entry }: { entry: SignInEntry }) {
  const color = entry.success ? 'green' : 'red';
  return (
    <Badge
      variant="light"
      color={color}
      c={`color-mix(in srgb, var(--mantine-color-${color}-9) 75%, black)`}
      radius="sm"
      tt="none"
      fw={600}
    >
      {entry.success ? S.success : S.failure}
    </Badge>
  );
}

/** Why it failed, in the journal's words (nothing for a success). */
function FailureText({ entry }: { entry: SignInEntry }) {
  if (entry.success || entry.failure === null) return null;
  return (
    <Text size="xs" c="red.9" style={WRAP_ANYWHERE} data-testid="sign-in-failure">
      {SIGN_IN_FAILURE_LABELS[entry.failure]}
    </Text>
  );
}

/**
 * Who: the person's name with the login under it, or — a login that named no one — the login alone,
 * dimmed. One cell for both, so that the journal fits a 1280 px screen without scrolling sideways.
 */
function Person({ entry }: { entry: SignInEntry }) {
  if (!entry.name) {
    return (
      <Text size="sm" c="dimmed" style={WRAP_ANYWHERE}>
        {entry.login}
      </Text>
    );
  }
  return (
    <>
      <Text size="sm" fw={600} style={WRAP_ANYWHERE}>
        {entry.name}
      </Text>
      <Text size="xs" c="dimmed" style={WRAP_ANYWHERE}>
        {entry.login}
      </Text>
    </>
  );
}

/** The browser in a few words; the whole user agent in the title (a tooltip, and read out as its description). */
function Browser({ entry }: { entry: SignInEntry }) {
  if (!entry.user_agent) return null;
  return (
    <Text size="xs" c="dimmed" title={entry.user_agent} lineClamp={2} style={WRAP_ANYWHERE}>
      {browserSummary(entry.user_agent)}
    </Text>
  );
}

/** Where from: the address, and the browser under it. */
function Origin({ entry }: { entry: SignInEntry }) {
  return (
    <>
      <Text size="sm" style={WRAP_ANYWHERE}>
        {entry.ip}
      </Text>
      <Browser entry={entry} />
    </>
  );
}

export function SignInRow({ entry, timeZone }: SignInRowProps) {
  return (
    <Table.Tr data-testid="sign-in-row">
      <Table.Td style={TOP}>
        <EntryTime entry={entry} timeZone={timeZone} />
      </Table.Td>
      <Table.Td miw={180} style={TOP}>
        <Person entry={entry} />
      </Table.Td>
      <Table.Td miw={110} style={TOP}>
        <Text size="sm">{SIGN_IN_METHOD_LABELS[entry.method]}</Text>
      </Table.Td>
      <Table.Td miw={170} style={TOP}>
        <Stack gap={4} align="flex-start">
          <ResultBadge entry={entry} />
          <FailureText entry={entry} />
        </Stack>
      </Table.Td>
      <Table.Td miw={150} maw={220} style={TOP}>
        <Origin entry={entry} />
      </Table.Td>
    </Table.Tr>
  );
}

/** A phone's row: the result and the time on top, then who, how and from where. */
export function CompactSignInRow({ entry, timeZone }: SignInRowProps) {
  return (
    <Table.Tr data-testid="sign-in-row">
      <Table.Td>
        <Stack gap={6}>
          <Group gap="xs" justify="space-between" wrap="nowrap">
            <ResultBadge entry={entry} />
            <EntryTime entry={entry} timeZone={timeZone} />
          </Group>
          <div>
            <Person entry={entry} />
          </div>
          <FailureText entry={entry} />
          <Text size="xs" c="dimmed" style={WRAP_ANYWHERE}>
            {SIGN_IN_METHOD_LABELS[entry.method]} · {entry.ip}
            {entry.user_agent ? ` · ${browserSummary(entry.user_agent)}` : ''}
          </Text>
        </Stack>
      </Table.Td>
    </Table.Tr>
  );
}
