import { PEOPLE_ACTION_LABELS, PERSON_FIELD_LABELS, type FieldChange, type PeopleBatchRow } from '@lms/contract';
import { Badge, Group, List, Stack, Table, Text } from '@mantine/core';
import { ACTION_COLORS, IMPORT_TEXTS as I } from './importTexts';

/** The rows of a dry run: a table row per file line (or per person missing from the file). */

export function ActionBadge({ row }: { row: Pick<PeopleBatchRow, 'action'> }) {
  return (
    // the dot carries the colour: the light variant's coloured text is below 4.5:1 on its background
    <Badge
      variant="dot"
      color={ACTION_COLORS[row.action]}
      radius="sm"
      tt="none"
      fw={600}
      // whole, never cut to '…'
      styles={{ label: { overflow: 'visible' } }}
    >
      {PEOPLE_ACTION_LABELS[row.action]}
    </Badge>
  );
}

const shown = (value: string | null) => (value === null || value === '' ? I.empty : value);

/**
 * A new person's fields besides the name and the address (they are in the person's cell already):
 * 'Отдел: Продажи'. Another's changed fields: 'Должность: Менеджер → Старший менеджер'.
 */
function changeText(change: FieldChange, created: boolean): string {
  const label = PERSON_FIELD_LABELS[change.field];
  if (created) return `${label}: ${shown(change.after)}`;
  return `${label}: ${shown(change.before)} → ${shown(change.after)}`;
}

const NAMED_IN_PERSON_CELL = new Set<FieldChange['field']>(['last_name', 'first_name', 'email']);

/** What happens to the row's person, line by line: the changes, the errors in red, or nothing. */
export function RowChanges({ row }: { row: PeopleBatchRow }) {
  if (row.action === 'error') {
    return (
      <List size="sm" spacing={2} c="red.8" listStyleType="none" ml={0} pl={0}>
        {row.errors.map((error) => (
          <List.Item key={error} style={{ overflowWrap: 'anywhere' }}>
            {error}
          </List.Item>
        ))}
      </List>
    );
  }
  if (row.action === 'delete') {
    return (
      <Text size="sm" c="dimmed">
        {I.notInFile}
      </Text>
    );
  }
  const created = row.action === 'create';
  const changes = created ? row.changes.filter((c) => !NAMED_IN_PERSON_CELL.has(c.field)) : row.changes;
  if (changes.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        {I.empty}
      </Text>
    );
  }
  return (
    <List size="sm" spacing={2} listStyleType="none" ml={0} pl={0}>
      {changes.map((change) => (
        <List.Item key={change.field} style={{ overflowWrap: 'anywhere' }}>
          {changeText(change, created)}
        </List.Item>
      ))}
    </List>
  );
}

function Person({ row }: { row: PeopleBatchRow }) {
  return (
    <>
      <Text size="sm" fw={600} style={{ overflowWrap: 'anywhere' }}>
        {row.name || I.empty}
      </Text>
      <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
        {row.email || I.empty}
      </Text>
    </>
  );
}

function Line({ row }: { row: PeopleBatchRow }) {
  return (
    <Text size="sm" c={row.line === null ? 'dimmed' : undefined} style={{ whiteSpace: 'nowrap' }}>
      {row.line ?? I.empty}
    </Text>
  );
}

export function BatchRow({ row }: { row: PeopleBatchRow }) {
  return (
    <Table.Tr data-testid="import-row">
      <Table.Td w={80}>
        <Line row={row} />
      </Table.Td>
      <Table.Td miw={220} maw={320}>
        <Person row={row} />
      </Table.Td>
      <Table.Td style={{ whiteSpace: 'nowrap' }}>
        <ActionBadge row={row} />
      </Table.Td>
      <Table.Td miw={280}>
        <RowChanges row={row} />
      </Table.Td>
    </Table.Tr>
  );
}

/** A phone's row: the same facts stacked in one cell, as the mail log's. */
export function CompactBatchRow({ row }: { row: PeopleBatchRow }) {
  return (
    <Table.Tr data-testid="import-row">
      <Table.Td>
        <Stack gap={6}>
          <Group gap="xs" justify="space-between" wrap="nowrap">
            <ActionBadge row={row} />
            <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
              {row.line === null ? I.notInFile : I.lineN(row.line)}
            </Text>
          </Group>
          <div>
            <Person row={row} />
          </div>
          {row.action === 'delete' || row.action === 'unchanged' ? null : <RowChanges row={row} />}
        </Stack>
      </Table.Td>
    </Table.Tr>
  );
}
