import type { CertificateItem } from '@lms/contract';
import { Anchor, Button, Group, Paper, Stack, Text } from '@mantine/core';
import { IconDownload, IconShieldCheck } from '@tabler/icons-react';
import { CERTIFICATE_TEXTS as C, CertificateStatusBadge, certificateDate, validUntilText } from './certificates';

interface CertificateListProps {
  items: CertificateItem[];
  timeZone: string | undefined;
  /** 'Проверить' opens the public page: for the learner, who hands the number on. */
  withVerify?: boolean;
}

/** Certificates as cards: course, dates, status (with a revocation's reason) and the PDF. */
export function CertificateList({ items, timeZone, withVerify = false }: CertificateListProps) {
  return (
    <Stack gap="sm" component="ul" p={0} m={0} style={{ listStyle: 'none' }}>
      {items.map((item) => (
        <Paper key={item.number} component="li" withBorder radius="md" p="md">
          <Stack gap={6}>
            <Group justify="space-between" align="flex-start" gap="xs" wrap="nowrap">
              <div style={{ minWidth: 0 }}>
                <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
                  {item.course_title}
                </Text>
                <Text size="xs" c="dimmed">
                  {item.title} · {item.number}
                </Text>
              </div>
              <CertificateStatusBadge status={item.status} />
            </Group>
            <Text size="sm">
              {C.completed}: {certificateDate(item.completed_at, timeZone)}
              {' · '}
              {item.valid_until ? `${C.validUntil} ${validUntilText(item.valid_until, timeZone)}` : C.forever}
            </Text>
            {item.status === 'revoked' && item.revoke_reason ? (
              <Text size="sm" c="red.8">
                {C.reason}: {item.revoke_reason}
              </Text>
            ) : null}
            <Group gap="xs" mt={4}>
              <Button
                component="a"
                href={item.pdf_url}
                download
                size="xs"
                variant="light"
                leftSection={<IconDownload size={16} aria-hidden="true" />}
                aria-label={`${C.download}: ${item.course_title}`}
              >
                {C.download}
              </Button>
              {withVerify ? (
                <Button
                  component="a"
                  href={item.verify_url}
                  target="_blank"
                  rel="noopener"
                  size="xs"
                  variant="default"
                  leftSection={<IconShieldCheck size={16} aria-hidden="true" />}
                >
                  {C.verify}
                </Button>
              ) : null}
            </Group>
          </Stack>
        </Paper>
      ))}
    </Stack>
  );
}

/** The latest certificate of a course in one line, for the course page. */
export function CertificateLink({ item, timeZone }: { item: CertificateItem; timeZone: string | undefined }) {
  return (
    <Group gap="xs" wrap="wrap">
      <CertificateStatusBadge status={item.status} />
      <Text size="sm">
        {item.valid_until ? `${C.validUntil} ${validUntilText(item.valid_until, timeZone)}` : C.forever}
      </Text>
      <Anchor href={item.pdf_url} download size="sm">
        {C.download}
      </Anchor>
    </Group>
  );
}
