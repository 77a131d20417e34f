import {
  AUDIT_ACTION_LABELS,
  AUDIT_ACTIONS,
  AUDIT_SOURCE_LABELS,
  AUDIT_SOURCES,
  auditActorText,
  auditChangeText,
  auditSubjectText,
  auditValueText,
  PERSON_FIELD_LABELS,
  type AuditAction,
  type AuditEntry,
  type AuditSource,
} from '@lms/contract';
import { Badge, Group, Select, Stack, Table, Text } from '@mantine/core';
import { useDebouncedValue, useMediaQuery } from '@mantine/hooks';
import { useState } from 'react';
import { errorStatus } from '../../lib/errors';
import { usePublicConfig } from '../../shared/config';
import { ExportMenu } from '../../shared/ExportMenu';
import { SearchInput } from '../../shared/SearchInput';
import {
  ACTION_OPTIONS,
  ALL,
  AUDIT_ACTION_COLORS,
  AUDIT_EXPORT_PATH,
  AUDIT_PER_PAGE,
  AUDIT_SEARCH_DEBOUNCE_MS,
  AUDIT_TEXTS as A,
  auditParams,
  SOURCE_OPTIONS,
  useAudit,
  type AuditFilters,
} from './audit';
import { formatSentAt } from './mailLog';
import { PagedTableCard, PageNav, usePage } from './Paging';
import { SettingsFrame } from './SettingsFrame';
import { T } from './texts';
import { AccessDenied, DataTableBody, SettingsTable, useErrorToast } from './ui';

const COLUMNS = 5;

/** /settings/audit: who changed employees and their courses, newest first, a page at a time (issue 32). */
export default function AuditPage() {
  return (
    <SettingsFrame>
      <AuditTab />
    </SettingsFrame>
  );
}

/** A filter's key: the same filters are the same list (and the same page of it). */
const filterKey = (filters: AuditFilters) => JSON.stringify(auditParams(filters));

function AuditTab() {
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), AUDIT_SEARCH_DEBOUNCE_MS);
  const [action, setAction] = useState<AuditAction>();
  const [source, setSource] = useState<AuditSource>();
  const filters: AuditFilters = { action, source, search: debounced || undefined };
  // the page belongs to the filters it was chosen for: new filters start again at page 1
  const [paging, setPaging] = useState({ key: filterKey({}), page: 1 });
  const page = paging.key === filterKey(filters) ? paging.page : 1;
  const setPage = (next: number) => setPaging({ key: filterKey(filters), page: next });

  const audit = useAudit(filters, page);
  const forbidden = errorStatus(audit.error) === 403;
  useErrorToast(audit, T.loadError, 'settings-load-error', !forbidden);
  const paged = usePage(audit, page, AUDIT_PER_PAGE, setPage);
  const { rows } = paged;
  // 'Ничего не найдено' rather than 'Изменений пока нет' when the rows shown were filtered
  const shownFilter = filterKey(audit.data?.filters ?? filters);
  const phone = useMediaQuery('(max-width: 47.99em)');
  const timeZone = usePublicConfig().data?.time_zone;

  if (forbidden) return <AccessDenied />;

  return (
    <Stack gap="md">
      <Text size="sm" c="dimmed">
        {A.intro}
      </Text>
      <Group gap="sm" wrap="wrap" align="flex-start">
        <SearchInput
          value={search}
          onChange={setSearch}
          placeholder={A.search}
          // the search takes what the selects and the export leave of the row
          w={{ base: '100%', sm: 'auto' }}
          flex={{ base: '1 1 100%', sm: '1 1 200px' }}
          radius="md"
          type="search"
        />
        <Group gap="sm" wrap="nowrap" w={{ base: '100%', xs: 'auto' }}>
          <Select
            aria-label={A.action}
            data={ACTION_OPTIONS}
            value={action ?? ALL}
            onChange={(value) => setAction(AUDIT_ACTIONS.find((a) => a === value))}
            allowDeselect={false}
            radius="md"
            w={{ base: '50%', xs: 190 }}
            comboboxProps={{ width: 'max-content', position: 'bottom-start' }}
          />
          <Select
            aria-label={A.source}
            data={SOURCE_OPTIONS}
            value={source ?? ALL}
            onChange={(value) => setSource(AUDIT_SOURCES.find((s) => s === value))}
            allowDeselect={false}
            radius="md"
            w={{ base: '50%', xs: 230 }}
            comboboxProps={{ width: 'max-content', position: 'bottom-end' }}
          />
        </Group>
        <Group ml={{ xs: 'auto' }} w={{ base: '100%', xs: 'auto' }}>
          <ExportMenu path={AUDIT_EXPORT_PATH} filters={auditParams(filters)} grow />
        </Group>
      </Group>
      <PagedTableCard loading={audit.isPlaceholderData}>
        <SettingsTable
          label={A.tab}
          minWidth={phone ? 0 : 900}
          head={
            phone ? (
              <Table.Th>{A.colEntry}</Table.Th>
            ) : (
              <>
                <Table.Th>{A.colTime}</Table.Th>
                <Table.Th>{A.colActor}</Table.Th>
                <Table.Th>{A.colAction}</Table.Th>
                <Table.Th>{A.colSubject}</Table.Th>
                <Table.Th>{A.colChanges}</Table.Th>
              </>
            )
          }
        >
          <DataTableBody
            query={audit}
            rows={rows}
            columns={phone ? 1 : COLUMNS}
            // any filter counts as a search: an empty result is 'Ничего не найдено'
            search={shownFilter === filterKey({}) ? '' : shownFilter}
            emptyText={A.empty}
            renderRow={(entry) =>
              phone ? (
                <CompactAuditRow key={entry.id} entry={entry} timeZone={timeZone} />
              ) : (
                <AuditRow key={entry.id} entry={entry} timeZone={timeZone} />
              )
            }
          />
        </SettingsTable>
      </PagedTableCard>
      <PageNav label={A.pages} shown={A.shown} state={paged} page={page} onChange={setPage} phone={phone} />
    </Stack>
  );
}

interface RowProps {
  entry: AuditEntry;
  timeZone: string | undefined;
}

function EntryTime({ entry, timeZone }: RowProps) {
  return (
    <Text size="sm" component="time" dateTime={entry.at} style={{ whiteSpace: 'nowrap' }}>
      {formatSentAt(entry.at, timeZone)}
    </Text>
  );
}

function ActionBadge({ entry }: { entry: AuditEntry }) {
  const color = AUDIT_ACTION_COLORS[entry.action];
  return (
    <Badge
      variant="light"
      color={color}
      // the light variant's own text (green.9 on green.1 is 3.8:1) darkened to WCAG AA's 4.5:1 for small text
      c={`color-mix(in srgb, var(--mantine-color-${color}-9) 75%, black)`}
      radius="sm"
      tt="none"
      fw={600}
      // whole, never cut to '…': the column is as wide as its longest action
      styles={{ label: { overflow: 'visible' } }}
    >
      {AUDIT_ACTION_LABELS[entry.action]}
    </Badge>
  );
}

/** Who did it and from where: the person (or the scheduled sync), and the source under it. */
function Actor({ entry }: { entry: AuditEntry }) {
  return (
    <>
      <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
        {auditActorText(entry)}
      </Text>
      <Text size="xs" c="dimmed">
        {AUDIT_SOURCE_LABELS[entry.source]}
      </Text>
    </>
  );
}

/**
 * What changed, a line each: 'Отдел: Продажи → Склад' (a new employee's values alone), or the course
 * of an assignment; nothing for a deletion.
 */
function Changes({ entry }: { entry: AuditEntry }) {
  if (entry.course !== null) return <Text size="sm">{A.course(entry.course)}</Text>;
  if (entry.changes.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        {auditValueText(null)}
      </Text>
    );
  }
  return (
    <Stack gap={2}>
      {entry.changes.map((change) => {
        // the contract's wording (the export's too), its field's name dimmed
        const label = PERSON_FIELD_LABELS[change.field];
        return (
          <Text key={change.field} size="sm" style={{ overflowWrap: 'anywhere' }} data-testid="audit-change">
            <Text span inherit c="dimmed">
              {label}:
            </Text>
            {auditChangeText(change, entry.action).slice(label.length + 1)}
          </Text>
        );
      })}
    </Stack>
  );
}

function AuditRow({ entry, timeZone }: RowProps) {
  return (
    <Table.Tr data-testid="audit-row">
      <Table.Td style={{ verticalAlign: 'top' }}>
        <EntryTime entry={entry} timeZone={timeZone} />
      </Table.Td>
      <Table.Td miw={140} style={{ verticalAlign: 'top' }}>
        <Actor entry={entry} />
      </Table.Td>
      <Table.Td style={{ whiteSpace: 'nowrap', verticalAlign: 'top' }}>
        <ActionBadge entry={entry} />
      </Table.Td>
      <Table.Td miw={140} style={{ verticalAlign: 'top' }}>
        <Text size="sm" fw={600} style={{ overflowWrap: 'anywhere' }}>
          {auditSubjectText(entry)}
        </Text>
      </Table.Td>
      {/* the widest: a line per change; the others wrap first (the table fits 1280 px without scrolling) */}
      <Table.Td miw={260} style={{ verticalAlign: 'top' }}>
        <Changes entry={entry} />
      </Table.Td>
    </Table.Tr>
  );
}

/** A phone's row: the same facts stacked in one cell, the action and the time on top. */
function CompactAuditRow({ entry, timeZone }: RowProps) {
  return (
    <Table.Tr data-testid="audit-row">
      <Table.Td>
        <Stack gap={6}>
          <Group gap="xs" justify="space-between" wrap="nowrap">
            <ActionBadge entry={entry} />
            <EntryTime entry={entry} timeZone={timeZone} />
          </Group>
          <Text size="sm" fw={600} style={{ overflowWrap: 'anywhere' }}>
            {auditSubjectText(entry)}
          </Text>
          <Changes entry={entry} />
          <Text size="xs" c="dimmed">
            {auditActorText(entry)} · {AUDIT_SOURCE_LABELS[entry.source]}
          </Text>
        </Stack>
      </Table.Td>
    </Table.Tr>
  );
}
