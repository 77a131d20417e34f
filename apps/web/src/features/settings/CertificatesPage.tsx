import { CERTIFICATE_STATUS_TEXT, CERTIFICATE_STATUSES, type CertificateItem } from '@lms/contract';
import { Anchor, Button, Group, Select, Stack, Table, Text, VisuallyHidden } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconDownload, IconFileZip } from '@tabler/icons-react';
import { useState } from 'react';
import { errorStatus, messageOr } from '../../lib/errors';
import { CertificateStatusBadge, certificateDate, validUntilText } from '../../shared/certificates';
import { usePublicConfig } from '../../shared/config';
import { ExportMenu } from '../../shared/ExportMenu';
import { SearchInput } from '../../shared/SearchInput';
import { toastError } from '../../shared/toast';
import {
  CERTIFICATES_PAGE_SIZE,
  CERTIFICATES_TEXTS as C,
  certificateParams,
  downloadArchive,
  useCertificateFilters,
  useCertificatesPage,
} from './certificates';
import { PagedTableCard, PageNav, usePage } from './Paging';
import { departments, useCourseChoices } from './queries';
import { RevokeDialog } from './RevokeDialog';
import { SettingsFrame } from './SettingsFrame';
import { AccessDenied, DataTableBody, SettingsTable, useErrorToast } from './ui';

const COLUMNS = 7;
const ALL = '';
const STATUS_OPTIONS = [
  { value: ALL, label: C.allStatuses },
  ...CERTIFICATE_STATUSES.map((s) => ({ value: s, label: CERTIFICATE_STATUS_TEXT[s] })),
];

/** /settings/certificates: every certificate issued, filtered, exported, archived and revoked (issue 35). */
export default function CertificatesPage() {
  return (
    <SettingsFrame>
      <CertificatesTab />
    </SettingsFrame>
  );
}

function CertificatesTab() {
  const { filters, page, search, setSearch, set, setPage } = useCertificateFilters();
  const list = useCertificatesPage(filters, page);
  const forbidden = errorStatus(list.error) === 403;
  useErrorToast(list, C.loadError, 'settings-certificates-error', !forbidden);
  const paged = usePage(list, page, CERTIFICATES_PAGE_SIZE, setPage);
  const phone = useMediaQuery('(max-width: 47.99em)');
  const timeZone = usePublicConfig().data?.time_zone;
  const courses = useCourseChoices().data ?? [];
  const departmentList = departments.useList().data ?? [];
  const [revoking, setRevoking] = useState<CertificateItem | null>(null);
  const [archiving, setArchiving] = useState(false);
  const filtered = Object.keys(certificateParams(filters)).length > 0;

  const onArchive = async () => {
    setArchiving(true);
    try {
      await downloadArchive(filters);
    } catch (error) {
      toastError(messageOr(error, C.archiveError), 'settings-certificates-archive');
    } finally {
      setArchiving(false);
    }
  };

  if (forbidden) return <AccessDenied />;

  return (
    <Stack gap="md">
      <Text size="sm" c="dimmed">
        {C.intro}
      </Text>
      <Group gap="sm" wrap="wrap" align="flex-start">
        <SearchInput
          value={search}
          onChange={setSearch}
          placeholder={C.search}
          w={{ base: '100%', sm: 'auto' }}
          flex={{ base: '1 1 100%', sm: '1 1 220px' }}
          radius="md"
          type="search"
        />
        <Select
          aria-label={C.course}
          data={[{ value: ALL, label: C.allCourses }, ...courses.map((c) => ({ value: String(c.id), label: c.name }))]}
          value={filters.course_id ?? ALL}
          onChange={(value) => set({ course_id: value || undefined })}
          allowDeselect={false}
          searchable
          radius="md"
          w={{ base: '100%', xs: 240 }}
        />
        <Select
          aria-label={C.department}
          data={[
            { value: ALL, label: C.allDepartments },
            ...departmentList.map((d) => ({ value: String(d.id), label: d.name })),
          ]}
          value={filters.department_id ?? ALL}
          onChange={(value) => set({ department_id: value || undefined })}
          allowDeselect={false}
          searchable
          radius="md"
          w={{ base: '100%', xs: 220 }}
        />
        <Select
          aria-label={C.status}
          data={STATUS_OPTIONS}
          value={filters.status ?? ALL}
          onChange={(value) => set({ status: CERTIFICATE_STATUSES.find((s) => s === value) })}
          allowDeselect={false}
          radius="md"
          w={{ base: '100%', xs: 190 }}
        />
      </Group>
      <Group gap="sm" justify="space-between" wrap="wrap">
        <Text size="sm" c="dimmed" data-testid="certificates-total">
          {list.data ? C.total(paged.total) : ''}
        </Text>
        <Group gap="sm" wrap="wrap">
          <ExportMenu path="/api/admin/certificates/export" filters={certificateParams(filters)} grow />
          <Button
            variant="default"
            onClick={() => void onArchive()}
            loading={archiving}
            leftSection={<IconFileZip size={18} aria-hidden="true" />}
            flex={{ base: '1 1 auto', xs: 'none' }}
          >
            {C.archive}
          </Button>
        </Group>
      </Group>
      <PagedTableCard loading={list.isPlaceholderData}>
        <SettingsTable
          label={C.tab}
          minWidth={phone ? 0 : 940}
          head={
            phone ? (
              <Table.Th>{C.colCertificate}</Table.Th>
            ) : (
              <>
                <Table.Th>{C.colNumber}</Table.Th>
                <Table.Th>{C.colEmployee}</Table.Th>
                <Table.Th>{C.colCourse}</Table.Th>
                <Table.Th>{C.colCompleted}</Table.Th>
                <Table.Th>{C.colValidUntil}</Table.Th>
                <Table.Th>{C.colStatus}</Table.Th>
                <Table.Th>
                  <VisuallyHidden>{C.colActions}</VisuallyHidden>
                </Table.Th>
              </>
            )
          }
        >
          <DataTableBody
            query={list}
            rows={paged.rows}
            columns={phone ? 1 : COLUMNS}
            // any filter counts as a search: an empty result is 'Ничего не найдено'
            search={filtered ? 'filtered' : ''}
            emptyText={C.empty}
            renderRow={(item) => {
              const props = { item, timeZone, onRevoke: () => setRevoking(item) };
              return phone ? <CompactRow key={item.number} {...props} /> : <Row key={item.number} {...props} />;
            }}
          />
        </SettingsTable>
      </PagedTableCard>
      <PageNav label={C.pages} shown={C.shown} state={paged} page={page} onChange={setPage} phone={phone} />
      <RevokeDialog certificate={revoking} onClose={() => setRevoking(null)} />
    </Stack>
  );
}

interface RowProps {
  item: CertificateItem;
  timeZone: string | undefined;
  onRevoke: () => void;
}

function Actions({ item, onRevoke, stacked = false }: Omit<RowProps, 'timeZone'> & { stacked?: boolean }) {
  const buttons = (
    <>
      <Button
        component="a"
        href={item.pdf_url}
        download
        size="compact-sm"
        variant="subtle"
        leftSection={<IconDownload size={14} aria-hidden="true" />}
        aria-label={C.pdfLabel(item.number)}
      >
        {C.pdf}
      </Button>
      {item.status !== 'revoked' ? (
        <Button
          size="compact-sm"
          variant="subtle"
          color="red"
          onClick={onRevoke}
          aria-label={C.revokeLabel(item.number)}
        >
          {C.revoke}
        </Button>
      ) : null}
    </>
  );
  return stacked ? (
    <Stack gap={4} align="flex-start">
      {buttons}
    </Stack>
  ) : (
    <Group gap={4} wrap="nowrap" justify="flex-end">
      {buttons}
    </Group>
  );
}

function Status({ item }: { item: CertificateItem }) {
  return (
    <Stack gap={2} align="flex-start">
      <CertificateStatusBadge status={item.status} />
      {item.status === 'revoked' && item.revoke_reason ? (
        <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
          {item.revoke_reason}
        </Text>
      ) : null}
    </Stack>
  );
}

function Row({ item, timeZone, onRevoke }: RowProps) {
  return (
    <Table.Tr data-testid="certificate-row">
      <Table.Td style={{ whiteSpace: 'nowrap', fontFamily: 'var(--mantine-font-family-monospace)', fontSize: 12 }}>
        <Anchor href={item.verify_url} target="_blank" rel="noopener" inherit>
          {item.number}
        </Anchor>
      </Table.Td>
      {/* the department under the name: one column less, so the table fits a laptop's width */}
      <Table.Td>
        <Text size="sm" fw={600}>
          {item.learner_name}
        </Text>
        <Text size="xs" c="dimmed">
          {item.department ?? C.noDepartment}
        </Text>
      </Table.Td>
      <Table.Td miw={150}>
        <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
          {item.course_title}
        </Text>
      </Table.Td>
      <Table.Td style={{ whiteSpace: 'nowrap' }}>
        <Text size="sm">{certificateDate(item.completed_at, timeZone)}</Text>
      </Table.Td>
      <Table.Td style={{ whiteSpace: 'nowrap' }}>
        <Text size="sm">{validUntilText(item.valid_until, timeZone)}</Text>
      </Table.Td>
      <Table.Td maw={220}>
        <Status item={item} />
      </Table.Td>
      <Table.Td>
        <Actions item={item} onRevoke={onRevoke} stacked />
      </Table.Td>
    </Table.Tr>
  );
}

/** A phone's row: everything in one cell, one line under another. */
function CompactRow({ item, timeZone, onRevoke }: RowProps) {
  return (
    <Table.Tr data-testid="certificate-row">
      <Table.Td>
        <Stack gap={4}>
          <Group justify="space-between" gap="xs" wrap="nowrap" align="flex-start">
            <Text size="sm" fw={600} style={{ overflowWrap: 'anywhere' }}>
              {item.learner_name}
            </Text>
            <CertificateStatusBadge status={item.status} />
          </Group>
          <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
            {item.course_title}
          </Text>
          <Text size="xs" c="dimmed">
            {item.number}
            {item.department ? ` · ${item.department}` : ''}
          </Text>
          <Text size="xs" c="dimmed">
            {C.colCompleted}: {certificateDate(item.completed_at, timeZone)} ·{' '}
            {item.valid_until
              ? `${C.colValidUntil} ${validUntilText(item.valid_until, timeZone)}`
              : validUntilText(null)}
          </Text>
          {item.status === 'revoked' && item.revoke_reason ? (
            <Text size="xs" c="red.8">
              {item.revoke_reason}
            </Text>
          ) : null}
          <Actions item={item} onRevoke={onRevoke} />
        </Stack>
      </Table.Td>
    </Table.Tr>
  );
}
