import type { ScormPackageInfo } from '@lms/contract';
import { Badge, Group, Paper, Stack, Text, Title } from '@mantine/core';
import type { UseQueryResult } from '@tanstack/react-query';
import { useId } from 'react';
import { formatDateTime } from '../../lib/lessonTime';
import { LoadErrorNotice, LoadingStatus } from '../../shared/ListStates';
import classes from './Constructor.module.css';
import { formatBytes } from './logic';
import { T } from './texts';

/** The package's versions, the current one first (docs/rules.md §SCORM packages: each upload is a new version). */
export function ScormVersions({ query }: { query: UseQueryResult<ScormPackageInfo[]> }) {
  const titleId = useId();
  if (query.isPending) return <LoadingStatus text={T.scormVersionsLoading} />;
  if (query.isError) return <LoadErrorNotice title={T.scormVersionsLoadError} retryLabel={T.retry} query={query} />;
  if (query.data.length === 0) return null;
  return (
    <Paper withBorder p={{ base: 'md', sm: 'lg' }} component="section" aria-labelledby={titleId}>
      <Stack gap="sm">
        <Title order={2} fz="lg" id={titleId}>
          {T.scormVersions}
        </Title>
        <Stack component="ul" gap="sm" m={0} p={0} style={{ listStyle: 'none' }}>
          {query.data.map((version, index) => (
            <VersionRow key={version.version} version={version} current={index === 0} />
          ))}
        </Stack>
      </Stack>
    </Paper>
  );
}

function VersionRow({ version, current }: { version: ScormPackageInfo; current: boolean }) {
  const facts = [
    T.scormStandard(version),
    T.scormScos(version.scos.length),
    ...(version.mastery_score === null ? [] : [T.scormMastery(version.mastery_score)]),
  ];
  return (
    <li className={classes.scormVersion} data-current={current || undefined} aria-current={current || undefined}>
      <Stack gap={4}>
        <Group gap="xs" justify="space-between" wrap="wrap">
          <Group gap="xs" wrap="nowrap">
            <Text fw={700} size="sm">
              {T.scormVersion(version.version)}
            </Text>
            {current ? (
              // White on this green reads at 5.4:1 (the light badge on the row's green is 3.8:1).
              <Badge size="sm" color="#2b7a3b" variant="filled">
                {T.scormCurrent}
              </Badge>
            ) : null}
          </Group>
          <Text size="sm" fw={500}>
            {T.scormLearners(version.learners)}
          </Text>
        </Group>
        <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
          {version.title}
        </Text>
        <Text size="sm">{facts.join(' · ')}</Text>
        <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
          {`${version.original_filename} · ${formatBytes(version.size)} · ${T.scormFiles(version.files)}`}
        </Text>
        <Text size="sm" c="dimmed">
          {T.scormUploaded(formatDateTime(version.uploaded_at), version.uploaded_by)}
        </Text>
      </Stack>
    </li>
  );
}
