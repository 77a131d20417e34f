import { Stack, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { CertificateList } from '../../shared/CertificateList';
import { employeeCertificatesQuery } from '../../shared/certificates';
import { usePublicConfig } from '../../shared/config';

/**
 * The employee's certificates in the employee card (issue 35), with their PDFs; the section is left
 * out when there are none (or they cannot be read), so the card stays about the courses.
 */
export function EmployeeCertificates({ userId }: { userId: number }) {
  const items = useQuery(employeeCertificatesQuery(userId)).data;
  const timeZone = usePublicConfig().data?.time_zone;
  if (!items || items.length === 0) return null;
  return (
    <Stack gap="sm" component="section" aria-labelledby="employee-certificates">
      <Title order={3} fz="lg" id="employee-certificates">
        Сертификаты
      </Title>
      <CertificateList items={items} timeZone={timeZone} />
    </Stack>
  );
}
