import { Group, Text } from '@mantine/core';
import { IconCertificate } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { CertificateLink } from '../../shared/CertificateList';
import { myCertificatesQuery } from '../../shared/certificates';
import { usePublicConfig } from '../../shared/config';

/**
 * The learner's latest certificate of this course, on the course page (issue 35); nothing when
 * there is none or the list cannot be read (the profile shows its own error).
 */
export function CourseCertificate({ courseId }: { courseId: number }) {
  const latest = useQuery({
    ...myCertificatesQuery,
    // finishing the course's last lesson may have just issued one: asked again on every visit
    staleTime: 0,
    // the list is newest first
    select: (items) => items.find((item) => item.course_id === courseId),
  }).data;
  const timeZone = usePublicConfig().data?.time_zone;
  if (!latest) return null;
  return (
    <Group gap="xs" wrap="nowrap" align="flex-start" data-testid="course-certificate">
      <IconCertificate size={20} aria-hidden="true" style={{ flex: 'none', marginTop: 2 }} />
      <div>
        <Text size="sm" fw={600}>
          {latest.title} · {latest.number}
        </Text>
        <CertificateLink item={latest} timeZone={timeZone} />
      </div>
    </Group>
  );
}
