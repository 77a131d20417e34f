import { PEOPLE_ACTIONS, type PeopleAction, type PeopleBatch } from '@lms/contract';
import {
  Badge,
  Button,
  Group,
  NativeSelect,
  Paper,
  SegmentedControl,
  Skeleton,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconReload } from '@tabler/icons-react';
import { useEffect, useRef, useState, type RefObject } from 'react';
import { errorStatus, messageOr } from '../../lib/errors';
import { ImportApply } from './ImportApply';
import { BatchRow, CompactBatchRow } from './ImportRows';
import { IMPORT_ROWS_PER_PAGE, useImportBatch, useImportRows } from './importQueries';
import { DIRECTORY_TEXTS } from './directorySync';
import { ACTION_COLORS, IMPORT_TEXTS as I } from './importTexts';
import { PagedTableCard, PageNav, usePage } from './Paging';
import { DataTableBody, ErrorState, SettingsTable } from './ui';

const COLUMNS = 4;
const ALL = 'all';

interface ImportResultProps {
  id: number;
  /** Back to step 1 with an empty form. */
  onAnother: () => void;
  /** Back to step 1 with the file and choices of this check (after a 409). */
  onAgain: () => void;
}

/** Steps 3 and 4: what importing the file would do, row by row, and applying it. */
export function ImportResult({ id, onAnother, onAgain }: ImportResultProps) {
  const batch = useImportBatch(id);
  const heading = useRef<HTMLHeadingElement>(null);
  const loaded = batch.data !== undefined;
  // the new step is announced: focus moves from the gone 'Проверить файл' button to its heading
  useEffect(() => {
    if (loaded) heading.current?.focus();
  }, [loaded]);

  if (batch.isPending) return <Skeleton h={220} radius="lg" aria-busy="true" />;
  if (batch.isError) {
    return (
      <Paper withBorder radius="lg" p="xl">
        <Stack align="center" gap="md">
          {errorStatus(batch.error) === 404 ? (
            <Text fw={600} role="alert">
              {messageOr(batch.error, I.loadError)}
            </Text>
          ) : (
            <ErrorState onRetry={() => void batch.refetch()} />
          )}
          <Button variant="default" leftSection={<IconReload size={18} aria-hidden="true" />} onClick={onAnother}>
            {I.another}
          </Button>
        </Stack>
      </Paper>
    );
  }
  return (
    <Stack gap="md">
      <Summary batch={batch.data} headingRef={heading} />
      <ImportApply batch={batch.data} onAnother={onAnother} onAgain={onAgain} />
      <BatchRows batch={batch.data} />
    </Stack>
  );
}

function chosenOptions(batch: PeopleBatch): string {
  const chosen = [
    batch.options.create_departments ? I.createDepartments : null,
    batch.options.delete_missing ? I.deleteMissing : null,
    batch.options.send_welcome ? I.sendWelcome : null,
  ].filter((x) => x !== null);
  return chosen.length > 0 ? `${I.options} ${chosen.join(', ')}` : I.noOptions;
}

interface SummaryProps {
  batch: PeopleBatch;
  headingRef: RefObject<HTMLHeadingElement | null>;
}

/** The file, the choices it was checked with, the count of each action, and the departments to create. */
function Summary({ batch, headingRef }: SummaryProps) {
  const { counts } = batch;
  return (
    <Paper withBorder radius="lg" p={{ base: 'md', sm: 'lg' }}>
      <Stack gap="sm">
        <Group justify="space-between" gap="xs" wrap="wrap">
          <Title order={3} fz="lg" ref={headingRef} tabIndex={-1} style={{ outline: 'none' }}>
            {I.counts}
          </Title>
          <Badge
            variant="dot"
            color={batch.status === 'applied' ? 'green' : 'gray'}
            radius="sm"
            tt="none"
            fw={600}
            data-testid="import-status"
          >
            {batch.status === 'applied' ? I.statusApplied : I.statusPreviewed}
          </Badge>
        </Group>
        {batch.status === 'previewed' ? (
          <Text size="sm">{batch.source === 'directory' ? I.checkedDirectory : I.checked(batch.file_name)}</Text>
        ) : null}
        <Text size="xs" c="dimmed">
          {batch.source === 'directory' ? DIRECTORY_TEXTS.rules : chosenOptions(batch)}
        </Text>
        <Group gap="xs" wrap="wrap" component="ul" m={0} p={0} style={{ listStyle: 'none' }} aria-label={I.counts}>
          {PEOPLE_ACTIONS.map((action) => (
            <li key={action}>
              <Badge
                size="lg"
                radius="sm"
                tt="none"
                fw={600}
                variant="dot"
                color={counts[action] > 0 ? ACTION_COLORS[action] : 'gray.4'}
                styles={{ label: { overflow: 'visible' } }}
                data-testid={`import-count-${action}`}
              >
                {I.count(I.countLabels[action], counts[action])}
              </Badge>
            </li>
          ))}
        </Group>
        {batch.new_departments.length > 0 ? (
          <Stack gap={6}>
            <Text size="sm" fw={600}>
              {(batch.status === 'applied' ? I.createdDepartments : I.newDepartments)(batch.new_departments.length)}
            </Text>
            <Group gap={6} wrap="wrap" component="ul" m={0} p={0} style={{ listStyle: 'none' }}>
              {batch.new_departments.map((name) => (
                <li key={name}>
                  <Badge variant="default" radius="sm" tt="none" fw={500} styles={{ label: { overflow: 'visible' } }}>
                    {name}
                  </Badge>
                </li>
              ))}
            </Group>
          </Stack>
        ) : null}
        {counts.error > 0 && batch.status === 'previewed' ? (
          <Text size="sm" c="red.8">
            {I.errorsSkipped(counts.error)}
          </Text>
        ) : null}
      </Stack>
    </Paper>
  );
}

/** The rows, filtered by action, 50 a page; on phones one stacked column. */
function BatchRows({ batch }: { batch: PeopleBatch }) {
  const [filter, setFilter] = useState<{ action: PeopleAction | null; page: number }>({ action: null, page: 1 });
  const { action, page } = filter;
  const setPage = (next: number) => setFilter((f) => ({ ...f, page: next }));
  const rows = useImportRows(batch.id, action, page);
  const paged = usePage(rows, page, IMPORT_ROWS_PER_PAGE, setPage);
  const phone = useMediaQuery('(max-width: 47.99em)');

  const total = PEOPLE_ACTIONS.reduce((sum, a) => sum + batch.counts[a], 0);
  // an action no row has is not offered; the one chosen stays even so
  const choices = [
    { value: ALL, label: I.filterOption(I.all, total) },
    ...PEOPLE_ACTIONS.filter((a) => batch.counts[a] > 0 || a === action).map((a) => ({
      value: a,
      label: I.filterOption(I.countLabels[a], batch.counts[a]),
    })),
  ];
  const choose = (value: string) => setFilter({ action: PEOPLE_ACTIONS.find((a) => a === value) ?? null, page: 1 });

  return (
    <Stack gap="sm">
      {phone ? (
        <NativeSelect
          label={I.filter}
          data={choices}
          value={action ?? ALL}
          onChange={(e) => choose(e.currentTarget.value)}
        />
      ) : (
        <Stack gap={4}>
          <Text size="sm" fw={500} id="import-filter-label">
            {I.filter}
          </Text>
          <SegmentedControl
            aria-labelledby="import-filter-label"
            data={choices}
            value={action ?? ALL}
            onChange={choose}
            radius="md"
            style={{ alignSelf: 'flex-start' }}
          />
        </Stack>
      )}
      <PagedTableCard loading={rows.isPlaceholderData}>
        <SettingsTable
          label={I.table}
          minWidth={phone ? 0 : 760}
          head={
            phone ? (
              <Table.Th>{I.colRow}</Table.Th>
            ) : (
              <>
                <Table.Th>{I.colLine}</Table.Th>
                <Table.Th>{I.colPerson}</Table.Th>
                <Table.Th>{I.colAction}</Table.Th>
                <Table.Th>{I.colChanges}</Table.Th>
              </>
            )
          }
        >
          <DataTableBody
            query={rows}
            rows={paged.rows}
            columns={phone ? 1 : COLUMNS}
            search=""
            emptyText={I.noRows}
            renderRow={(row) => {
              const key = `${row.line ?? 'missing'}-${row.user_id ?? ''}-${row.email}`;
              return phone ? <CompactBatchRow key={key} row={row} /> : <BatchRow key={key} row={row} />;
            }}
          />
        </SettingsTable>
      </PagedTableCard>
      <PageNav label={I.rowsPages} shown={I.rowsShown} state={paged} page={page} onChange={setPage} phone={phone} />
    </Stack>
  );
}
