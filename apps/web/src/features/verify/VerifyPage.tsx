import type { CertificateStatus, CertificateVerification } from '@lms/contract';
import { Box, Button, Divider, Group, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { IconAlertTriangle, IconCircleCheck, IconClockX, IconFileUnknown, IconShieldX } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useParams } from 'react-router';
import { errorStatus } from '../../lib/errors';
import { certificateDate } from '../../shared/certificates';
import { companyNameOf, usePublicConfig } from '../../shared/config';
import { LoadingStatus } from '../../shared/ListStates';
import { LogoMark } from '../../shared/Logo';
import { useVerification } from './queries';
import { VERIFY_STATE_TEXT, VERIFY_TEXTS as T } from './texts';

const STATE_LOOK: Record<CertificateStatus, { color: string; icon: ReactNode }> = {
  valid: { color: 'green', icon: <IconCircleCheck size={30} aria-hidden="true" /> },
  expired: { color: 'orange', icon: <IconClockX size={30} aria-hidden="true" /> },
  revoked: { color: 'red', icon: <IconShieldX size={30} aria-hidden="true" /> },
};

/**
 * /verify/{number} (issue 35): anyone holding a certificate's number — an employer, an auditor —
 * sees whether it stands. Public: no session, nothing about the person but the name.
 */
export default function VerifyPage() {
  const number = (useParams().number ?? '').trim().toUpperCase();
  const config = usePublicConfig();
  const check = useVerification(number);
  // the issuer as the certificate names it, the platform's own name until it is read
  const companyName = check.data?.company_name ?? companyNameOf(config.data);
  useDocumentTitle(`${T.pageTitle} · ${companyName}`);
  const status = errorStatus(check.error);

  let body: ReactNode;
  if (check.isPending) body = <LoadingStatus text={T.checking} />;
  else if (check.data) body = <Verified certificate={check.data} timeZone={config.data?.time_zone} />;
  else if (status === 404 || status === 422) {
    body = (
      <State
        color="gray"
        icon={<IconFileUnknown size={30} aria-hidden="true" />}
        title={T.notFound}
        hint={T.notFoundHint}
      />
    );
  } else if (status === 429) {
    body = (
      <State
        color="orange"
        icon={<IconAlertTriangle size={30} aria-hidden="true" />}
        title={T.tooMany}
        hint={T.tooManyHint}
      />
    );
  } else {
    body = (
      <State color="red" icon={<IconAlertTriangle size={30} aria-hidden="true" />} title={T.failed}>
        <Button variant="light" onClick={() => void check.refetch()} loading={check.isFetching}>
          {T.retry}
        </Button>
      </State>
    );
  }

  return (
    <Paper withBorder shadow="sm" radius="lg" p={{ base: 'lg', xs: 40 }} w="100%" maw={520}>
      <Stack gap="lg">
        <Group gap="sm" justify="center" wrap="nowrap">
          <LogoMark size={36} />
          <Text fw={700} fz="lg" lh={1.2}>
            {companyName}
          </Text>
        </Group>
        {body}
      </Stack>
    </Paper>
  );
}

function State({
  color,
  icon,
  title,
  hint,
  children,
}: {
  color: string;
  icon: ReactNode;
  title: string;
  hint?: string;
  children?: ReactNode;
}) {
  return (
    <Stack gap="xs" align="center" ta="center" role="status">
      <ThemeIcon size={56} radius="xl" variant="light" color={color}>
        {icon}
      </ThemeIcon>
      <Title order={1} fz={22} c={`${color}.8`}>
        {title}
      </Title>
      {hint ? (
        <Text size="sm" c="dimmed">
          {hint}
        </Text>
      ) : null}
      {children}
    </Stack>
  );
}

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Box>
      <Text component="dt" size="sm" c="dimmed">
        {label}
      </Text>
      <Text component="dd" m={0} fw={500} style={{ overflowWrap: 'anywhere' }}>
        {children}
      </Text>
    </Box>
  );
}

function Verified({
  certificate: c,
  timeZone,
}: {
  certificate: CertificateVerification;
  timeZone: string | undefined;
}) {
  const look = STATE_LOOK[c.status];
  return (
    <Stack gap="md">
      <State color={look.color} icon={look.icon} title={VERIFY_STATE_TEXT[c.status]}>
        {c.status === 'revoked' && c.revoke_reason ? (
          <Text size="sm" c="red.9">
            {T.reason}: {c.revoke_reason}
          </Text>
        ) : null}
      </State>
      <Divider />
      <Text fw={700} fz="lg" ta="center">
        {c.title}
      </Text>
      <Stack component="dl" gap="sm" m={0}>
        <Fact label={T.learner}>{c.learner_name}</Fact>
        <Fact label={T.course}>{c.course_title}</Fact>
        <Fact label={T.completed}>{certificateDate(c.completed_at, timeZone)}</Fact>
        <Fact label={T.validUntil}>{c.valid_until ? certificateDate(c.valid_until, timeZone) : T.forever}</Fact>
        {c.revoked_at ? <Fact label={T.revokedAt}>{certificateDate(c.revoked_at, timeZone)}</Fact> : null}
        <Fact label={T.number}>
          <span style={{ fontFamily: 'var(--mantine-font-family-monospace)' }}>{c.number}</span>
        </Fact>
      </Stack>
    </Stack>
  );
}
