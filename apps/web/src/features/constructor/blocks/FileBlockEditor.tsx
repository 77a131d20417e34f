import { Alert, Anchor, Button, FileButton, Group, Progress, Stack, Text } from '@mantine/core';
import { IconAlertCircle, IconDownload, IconFileUpload } from '@tabler/icons-react';
import { useState } from 'react';
import { formatBytes, storagePath, uploadFileProblem, type FileBlock } from '../logic';
import { uploadLessonFile } from '../lessonQueries';
import { T } from '../texts';

interface FileBlockEditorProps {
  block: FileBlock;
  editing: boolean;
  lessonId: number;
  onChange: (patch: Pick<FileBlock, 'file_path' | 'original_filename'>) => void;
}

/** The Файл block (docs/product.md §Lesson editor): any file up to 4 GB, uploaded with a progress bar. */
export function FileBlockEditor({ block, editing, lessonId, onChange }: FileBlockEditorProps) {
  const [problem, setProblem] = useState<string | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [size, setSize] = useState<number | null>(null);

  const choose = async (file: File | null) => {
    if (!file) return;
    const refused = uploadFileProblem(file);
    setProblem(refused);
    if (refused) return;
    setSize(file.size);
    setProgress(0);
    try {
      const result = await uploadLessonFile(lessonId, file, setProgress);
      onChange({ file_path: result.file_path, original_filename: result.original_filename });
    } catch (error) {
      console.error(T.fileUploadError, error);
      setProblem(T.fileUploadError);
    } finally {
      setProgress(null);
    }
  };

  const name = block.original_filename ?? block.file_path;
  const link = block.file_path ? (
    <Anchor href={storagePath(block.file_path)} download={block.original_filename ?? true} size="sm">
      <Group gap={6} wrap="nowrap" component="span">
        <IconDownload size={16} aria-hidden="true" />
        <span style={{ wordBreak: 'break-all' }}>{name}</span>
      </Group>
    </Anchor>
  ) : (
    <Text c="dimmed" size="sm">
      {T.noFile}
    </Text>
  );

  if (!editing) return link;

  const uploading = progress !== null;
  return (
    <Stack gap="sm">
      {link}
      <Group gap="sm">
        <FileButton
          onChange={(file) => void choose(file)}
          disabled={uploading}
          inputProps={{ 'aria-label': block.file_path ? T.replaceFile : T.chooseFile }}
        >
          {(props) => (
            <Button
              {...props}
              variant="light"
              leftSection={<IconFileUpload size={16} aria-hidden="true" />}
              disabled={uploading}
            >
              {block.file_path ? T.replaceFile : T.chooseFile}
            </Button>
          )}
        </FileButton>
        <Text size="xs" c="dimmed">
          {T.fileLimit}
        </Text>
      </Group>
      {uploading ? (
        <Stack gap={4}>
          <Progress value={progress} size="lg" radius="xl" animated aria-label={T.uploading} />
          <Text size="xs" c="dimmed" aria-live="polite">
            {`${T.uploading}: ${progress} %${size !== null ? ` из ${formatBytes(size)}` : ''}`}
          </Text>
        </Stack>
      ) : null}
      {problem ? (
        <Alert color="red" variant="light" icon={<IconAlertCircle size={18} aria-hidden="true" />} role="alert">
          {problem}
        </Alert>
      ) : null}
    </Stack>
  );
}
