import { Group, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconCertificate } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { CertificateList } from '../../shared/CertificateList';
import { myCertificatesQuery } from '../../shared/certificates';
import { usePublicConfig } from '../../shared/config';
import { LoadErrorNotice, LoadingStatus } from '../../shared/ListStates';
import { PROFILE_TEXTS as T } from './texts';

/** 'Мои сертификаты' (issue 35): the learner's certificates, newest first, to download and to hand on for checking. */
export function MyCertificates() {
  const titleId = useId();
  const certificates = useQuery(myCertificatesQuery);
  const timeZone = usePublicConfig().data?.time_zone;

  let body;
  if (certificates.isPending) body = <LoadingStatus text={T.certificatesLoading} />;
  else if (certificates.isError) {
    body = <LoadErrorNotice title={T.certificatesError} retryLabel={T.retry} query={certificates} />;
  } else if (certificates.data.length === 0) {
    body = <Text c="dimmed">{T.certificatesEmpty}</Text>;
  } else body = <CertificateList items={certificates.data} timeZone={timeZone} withVerify />;

  return (
    <Paper component="section" aria-labelledby={titleId} withBorder radius="md" p={{ base: 'lg', sm: 'xl' }}>
      <Stack gap="lg">
        <Group gap="sm" wrap="nowrap">
          <ThemeIcon size={40} radius="xl" variant="light" aria-hidden="true">
            <IconCertificate size={22} stroke={1.8} />
          </ThemeIcon>
          <Title order={2} id={titleId} fz={{ base: 20, sm: 22 }}>
            {T.certificatesTitle}
          </Title>
        </Group>
        {body}
      </Stack>
    </Paper>
  );
}
