import { Alert, Button, FileButton, Group, Paper, Progress, Stack, Text, Title } from '@mantine/core';
import { IconAlertCircle, IconInfoCircle, IconUpload } from '@tabler/icons-react';
import { useId, useState } from 'react';
import { toastSuccess } from '../../shared/toast';
import { formatBytes } from './logic';
import { scormFileProblem, scormUploadProblem, useUploadScorm } from './scormQueries';
import { T } from './texts';

interface ScormUploadCardProps {
  courseId: number;
  lessonId: number;
  /** A version is there already: the button uploads a new one. */
  hasPackage: boolean;
}

/**
 * Uploading a package (a .zip up to 4 GB) with a progress bar; a refusal is shown here, in the
 * server's words naming the problem, since it is about this file and stays until the next try.
 */
export function ScormUploadCard({ courseId, lessonId, hasPackage }: ScormUploadCardProps) {
  const upload = useUploadScorm(courseId, lessonId);
  const [problem, setProblem] = useState<string | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [size, setSize] = useState(0);
  const titleId = useId();

  const choose = async (file: File | null) => {
    if (!file) return;
    const refused = scormFileProblem(file);
    setProblem(refused);
    if (refused) return;
    setSize(file.size);
    setProgress(0);
    try {
      const { message } = await upload.mutateAsync({ file, onProgress: setProgress });
      toastSuccess(message);
    } catch (error) {
      setProblem(scormUploadProblem(error));
    } finally {
      setProgress(null);
    }
  };

  const uploading = progress !== null;
  const label = hasPackage ? T.uploadScormVersion : T.uploadScorm;
  return (
    <Paper withBorder p={{ base: 'md', sm: 'lg' }} component="section" aria-labelledby={titleId}>
      <Stack gap="sm">
        <Title order={2} fz="lg" id={titleId}>
          {T.scormUploadTitle}
        </Title>
        {hasPackage ? null : (
          <Text size="sm" c="dimmed">
            {T.scormNoPackage}
          </Text>
        )}
        <Group gap="sm">
          <FileButton
            onChange={(file) => void choose(file)}
            accept=".zip,application/zip,application/x-zip-compressed"
            disabled={uploading}
            inputProps={{ 'aria-label': label }}
          >
            {(props) => (
              <Button {...props} leftSection={<IconUpload size={16} aria-hidden="true" />} loading={uploading}>
                {label}
              </Button>
            )}
          </FileButton>
          <Text size="xs" c="dimmed">
            {T.scormFileHint}
          </Text>
        </Group>
        {uploading ? (
          <Stack gap={4}>
            <Progress value={progress} size="lg" radius="xl" animated aria-label={T.scormUploading} />
            <Text size="xs" c="dimmed" aria-live="polite">
              {progress < 100 ? T.scormUploadProgress(progress, formatBytes(size)) : T.scormChecking}
            </Text>
          </Stack>
        ) : null}
        {problem ? (
          <Alert color="red" variant="light" icon={<IconAlertCircle size={18} aria-hidden="true" />} role="alert">
            {problem}
          </Alert>
        ) : null}
        {hasPackage ? (
          <Group gap={6} wrap="nowrap" align="flex-start">
            <IconInfoCircle size={16} aria-hidden="true" style={{ flex: 'none', marginTop: 2 }} />
            <Text size="sm" c="dimmed">
              {T.scormKeepsResults}
            </Text>
          </Group>
        ) : null}
      </Stack>
    </Paper>
  );
}
