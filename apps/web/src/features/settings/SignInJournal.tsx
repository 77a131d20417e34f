import { SIGN_IN_METHODS } from '@lms/contract';
import { Group, Select, Stack, Table, Text, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useId } from 'react';
import { usePublicConfig } from '../../shared/config';
import { SearchInput } from '../../shared/SearchInput';
import { PagedTableCard, PageNav, usePage } from './Paging';
import type { useSignInFilters } from './signInFilters';
import { SignInRow, CompactSignInRow } from './SignInRows';
import { signInParams, SIGN_INS_PER_PAGE, type SignInFilters, type useSignIns } from './signIns';
import { ALL, METHOD_OPTIONS, RESULT_OPTIONS, SIGN_IN_RESULTS, SIGN_IN_TEXTS as S } from './signInTexts';
import { DataTableBody, SettingsTable } from './ui';

const COLUMNS = 5;

/** A filter's key: the same filters are the same list. */
const filterKey = (filters: SignInFilters) => JSON.stringify(signInParams(filters));

interface SignInJournalProps {
  journal: ReturnType<typeof useSignIns>;
  address: ReturnType<typeof useSignInFilters>;
}

/** 'Журнал входов': every sign-in, newest first, a page at a time, filtered from the address. */
export function SignInJournal({ journal, address }: SignInJournalProps) {
  const { filters, page, search, setSearch, setMethod, setResult, setPage, fixPage } = address;
  const titleId = useId();
  const paged = usePage(journal, page, SIGN_INS_PER_PAGE, fixPage);
  // 'Ничего не найдено' rather than 'Входов пока нет' when the rows shown were filtered
  const shownFilter = filterKey(journal.data?.filters ?? filters);
  const filtered = shownFilter !== filterKey({});
  const phone = useMediaQuery('(max-width: 47.99em)');
  const timeZone = usePublicConfig().data?.time_zone;

  return (
    <Stack component="section" aria-labelledby={titleId} gap="md">
      <Group justify="space-between" align="baseline" gap="xs" wrap="wrap">
        <Title order={2} id={titleId} fz={{ base: 20, sm: 22 }}>
          {S.journalTitle}
        </Title>
        {journal.data && paged.total > 0 ? (
          <Text size="sm" c="dimmed" data-testid="sign-ins-total">
            {filtered ? S.found(paged.total) : S.total(paged.total)}
          </Text>
        ) : null}
      </Group>
      <Text size="sm" c="dimmed">
        {S.journalIntro}
      </Text>
      <Group gap="sm" wrap="wrap" align="flex-start">
        <SearchInput
          value={search}
          onChange={setSearch}
          placeholder={S.search}
          // the search takes what the selects leave of the row
          w={{ base: '100%', sm: 'auto' }}
          flex={{ base: '1 1 100%', sm: '1 1 200px' }}
          radius="md"
          type="search"
        />
        <Group gap="sm" wrap="nowrap" w={{ base: '100%', xs: 'auto' }}>
          <Select
            aria-label={S.method}
            data={METHOD_OPTIONS}
            value={filters.method ?? ALL}
            onChange={(value) => setMethod(SIGN_IN_METHODS.find((m) => m === value))}
            allowDeselect={false}
            radius="md"
            w={{ base: '55%', xs: 230 }}
            comboboxProps={{ width: 'max-content', position: 'bottom-start' }}
          />
          <Select
            aria-label={S.result}
            data={RESULT_OPTIONS}
            value={filters.result ?? ALL}
            onChange={(value) => setResult(SIGN_IN_RESULTS.find((r) => r === value))}
            allowDeselect={false}
            radius="md"
            w={{ base: '45%', xs: 160 }}
            comboboxProps={{ width: 'max-content', position: 'bottom-end' }}
          />
        </Group>
      </Group>
      <PagedTableCard loading={journal.isPlaceholderData}>
        <SettingsTable
          label={S.journalTitle}
          minWidth={phone ? 0 : 860}
          head={
            phone ? (
              <Table.Th>{S.colEntry}</Table.Th>
            ) : (
              <>
                <Table.Th>{S.colTime}</Table.Th>
                <Table.Th>{S.colPerson}</Table.Th>
                <Table.Th>{S.colMethod}</Table.Th>
                <Table.Th>{S.colResult}</Table.Th>
                <Table.Th>{S.colOrigin}</Table.Th>
              </>
            )
          }
        >
          <DataTableBody
            query={journal}
            rows={paged.rows}
            columns={phone ? 1 : COLUMNS}
            // any filter counts as a search: an empty result is 'Ничего не найдено'
            search={filtered ? shownFilter : ''}
            emptyText={S.empty}
            renderRow={(entry) =>
              phone ? (
                <CompactSignInRow key={entry.id} entry={entry} timeZone={timeZone} />
              ) : (
                <SignInRow key={entry.id} entry={entry} timeZone={timeZone} />
              )
            }
          />
        </SettingsTable>
      </PagedTableCard>
      <PageNav label={S.pages} shown={S.shown} state={paged} page={page} onChange={setPage} phone={phone} />
    </Stack>
  );
}
