import type { MailLogItem } from '@lms/contract';
import { Badge, Button, Group, Stack, Table, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconRefresh } from '@tabler/icons-react';
import { useState } from 'react';
import { successMessage } from '../../lib/answer';
import { errorStatus } from '../../lib/errors';
import { usePublicConfig } from '../../shared/config';
import { toastError, toastSuccess } from '../../shared/toast';
import { errorText } from './logic';
import {
  formatSentAt,
  MAIL_KIND_COLORS,
  MAIL_KIND_LABELS,
  MAIL_LOG_PER_PAGE,
  MAIL_LOG_TEXTS as M,
  MAIL_STATUS_COLORS,
  MAIL_STATUS_LABELS,
  mailTime,
  useMailLog,
  useResendMail,
} from './mailLog';
import { PagedTableCard, PageNav, usePage } from './Paging';
import { SettingsFrame } from './SettingsFrame';
import { T } from './texts';
import { AccessDenied, DataTableBody, SettingsTable, useErrorToast } from './ui';

const COLUMNS = 5;

/** /settings/mail-log: every mail the platform sent, newest first, a page at a time (issue 16). */
export default function MailLogPage() {
  return (
    <SettingsFrame>
      <MailLogTab />
    </SettingsFrame>
  );
}

function MailLogTab() {
  const [page, setPage] = useState(1);
  const log = useMailLog(page);
  const forbidden = errorStatus(log.error) === 403;
  useErrorToast(log, T.loadError, 'settings-load-error', !forbidden);
  // a page past the end (the log cannot shrink, but a stale page number can): go to the last one
  const paged = usePage(log, page, MAIL_LOG_PER_PAGE, setPage);
  const { rows } = paged;
  const phone = useMediaQuery('(max-width: 47.99em)');
  const timeZone = usePublicConfig().data?.time_zone;
  const resend = useResendMail();
  const onResend = async (mail: MailLogItem) => {
    try {
      toastSuccess(successMessage(await resend.mutateAsync(mail.id), M.resent));
    } catch (error) {
      toastError(M.resendError(errorText(error)));
    }
  };

  if (forbidden) return <AccessDenied />;

  return (
    <Stack gap="md">
      <Text size="sm" c="dimmed">
        {M.intro}
      </Text>
      <PagedTableCard loading={log.isPlaceholderData}>
        <SettingsTable
          label={M.tab}
          minWidth={phone ? 0 : 900}
          head={
            phone ? (
              <Table.Th>{M.colMail}</Table.Th>
            ) : (
              <>
                <Table.Th>{M.colRecipient}</Table.Th>
                <Table.Th>{M.colKind}</Table.Th>
                <Table.Th>{M.colCourse}</Table.Th>
                <Table.Th>{M.colStatus}</Table.Th>
                <Table.Th>{M.colTime}</Table.Th>
              </>
            )
          }
        >
          <DataTableBody
            query={log}
            rows={rows}
            columns={phone ? 1 : COLUMNS}
            search=""
            emptyText={M.empty}
            renderRow={(mail) => {
              const props = {
                mail,
                timeZone,
                resending: resend.isPending && resend.variables === mail.id,
                onResend: () => void onResend(mail),
              };
              return phone ? <CompactMailRow key={mail.id} {...props} /> : <MailRow key={mail.id} {...props} />;
            }}
          />
        </SettingsTable>
      </PagedTableCard>
      <PageNav label={M.pages} shown={M.shown} state={paged} page={page} onChange={setPage} phone={phone} />
    </Stack>
  );
}

interface MailRowProps {
  mail: MailLogItem;
  timeZone: string | undefined;
  resending: boolean;
  onResend: () => void;
}

function Recipient({ mail }: { mail: MailLogItem }) {
  return (
    <>
      <Text size="sm" fw={600} style={{ overflowWrap: 'anywhere' }}>
        {mail.recipient}
      </Text>
      {mail.user_name ? (
        <Text size="xs" c="dimmed">
          {mail.user_name}
        </Text>
      ) : null}
    </>
  );
}

function KindBadge({ mail }: { mail: MailLogItem }) {
  return (
    <Badge
      variant="light"
      color={MAIL_KIND_COLORS[mail.kind]}
      radius="sm"
      tt="none"
      fw={600}
      // whole, never cut to '…': the column is as wide as its longest kind
      styles={{ label: { overflow: 'visible' } }}
    >
      {MAIL_KIND_LABELS[mail.kind]}
    </Badge>
  );
}

function MailTime({ mail, timeZone }: Pick<MailRowProps, 'mail' | 'timeZone'>) {
  return (
    <Text size="sm" component="time" dateTime={mailTime(mail)} style={{ whiteSpace: 'nowrap' }}>
      {formatSentAt(mailTime(mail), timeZone)}
    </Text>
  );
}

function MailRow(props: MailRowProps) {
  const { mail, timeZone } = props;
  return (
    <Table.Tr data-testid="mail-row">
      <Table.Td miw={200}>
        <Recipient mail={mail} />
      </Table.Td>
      <Table.Td style={{ whiteSpace: 'nowrap' }}>
        <KindBadge mail={mail} />
      </Table.Td>
      <Table.Td>
        {mail.course_name ? (
          <Text size="sm">{mail.course_name}</Text>
        ) : (
          <Text size="sm" c="dimmed">
            {M.noCourse}
          </Text>
        )}
      </Table.Td>
      <Table.Td miw={220} maw={300}>
        <MailStatusCell {...props} />
      </Table.Td>
      <Table.Td>
        <MailTime mail={mail} timeZone={timeZone} />
      </Table.Td>
    </Table.Tr>
  );
}

/** A phone's row: the same facts stacked in one cell, the status in view without scrolling sideways. */
function CompactMailRow(props: MailRowProps) {
  const { mail, timeZone } = props;
  return (
    <Table.Tr data-testid="mail-row">
      <Table.Td>
        <Stack gap={6}>
          <div>
            <Recipient mail={mail} />
          </div>
          <Group gap="xs" wrap="wrap">
            <KindBadge mail={mail} />
            {mail.course_name ? <Text size="sm">{mail.course_name}</Text> : null}
          </Group>
          <Group gap="xs" justify="space-between" align="flex-start" wrap="nowrap">
            <MailStatusCell {...props} />
            <MailTime mail={mail} timeZone={timeZone} />
          </Group>
        </Stack>
      </Table.Td>
    </Table.Tr>
  );
}

/** The status badge; why the last try failed and when the next is; a failed mail's resend button. */
function MailStatusCell({ mail, timeZone, resending, onResend }: MailRowProps) {
  return (
    <Stack gap={4} align="flex-start">
      <Badge variant="light" color={MAIL_STATUS_COLORS[mail.status]} radius="sm" tt="none" fw={600}>
        {MAIL_STATUS_LABELS[mail.status]}
      </Badge>
      {mail.error ? (
        <Text size="xs" c={mail.status === 'failed' ? 'red.8' : 'dimmed'} style={{ overflowWrap: 'anywhere' }}>
          {mail.status === 'failed' ? mail.error : M.lastTryFailed(mail.error)}
        </Text>
      ) : null}
      {mail.status === 'queued' && mail.error && mail.next_attempt_at ? (
        <Text size="xs" c="dimmed">
          {M.nextTry(formatSentAt(mail.next_attempt_at, timeZone))}
        </Text>
      ) : null}
      {mail.status === 'failed' ? (
        <Button
          size="compact-xs"
          variant="light"
          leftSection={<IconRefresh size={14} aria-hidden />}
          loading={resending}
          onClick={onResend}
          aria-label={M.resendLabel(mail.recipient)}
        >
          {M.resend}
        </Button>
      ) : null}
    </Stack>
  );
}
