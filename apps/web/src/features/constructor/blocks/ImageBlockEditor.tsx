import { Alert, Button, FileButton, Group, Stack, Text, TextInput } from '@mantine/core';
import { IconAlertCircle, IconPhotoUp } from '@tabler/icons-react';
import { useState } from 'react';
import classes from '../Constructor.module.css';
import { IMAGE_ACCEPT, imageFileProblem, storagePath, type ImageBlock } from '../logic';
import { uploadLessonImage } from '../lessonQueries';
import { T } from '../texts';
import { uploadErrorDetail } from './uploadError';

interface ImageBlockEditorProps {
  block: ImageBlock;
  editing: boolean;
  lessonId: number;
  onChange: (patch: Partial<Pick<ImageBlock, 'file_path' | 'original_filename' | 'description'>>) => void;
}

/**
 * The Картинка block (docs/product.md §Lesson editor): a jpeg, png, webp or gif of at most 20 MB, uploaded at once to
 * POST /api/upload-image; a description under it. Refusals show as alerts in the block.
 */
export function ImageBlockEditor({ block, editing, lessonId, onChange }: ImageBlockEditorProps) {
  const [problem, setProblem] = useState<string | null>(null);
  const [uploading, setUploading] = useState(false);
  const src = block.file_path ? storagePath(block.file_path) : null;
  const alt = block.description || block.original_filename || T.blockImage;

  const choose = async (file: File | null) => {
    if (!file) return;
    const refused = imageFileProblem(file);
    setProblem(refused);
    if (refused) return;
    setUploading(true);
    try {
      const result = await uploadLessonImage(lessonId, file);
      onChange({ file_path: result.file_path, original_filename: result.original_filename });
    } catch (error) {
      setProblem(T.imageUploadError(uploadErrorDetail(error)));
    } finally {
      setUploading(false);
    }
  };

  const image = src ? <img src={src} alt={alt} className={classes.lessonImage} /> : null;

  if (!editing) {
    return (
      <Stack gap={6}>
        {image ?? (
          <Text c="dimmed" size="sm">
            {T.noImage}
          </Text>
        )}
        {block.description ? (
          <Text size="sm" c="dimmed">
            {block.description}
          </Text>
        ) : null}
      </Stack>
    );
  }

  return (
    <Stack gap="sm">
      {image}
      <Group gap="sm">
        <FileButton
          onChange={(file) => void choose(file)}
          accept={IMAGE_ACCEPT}
          inputProps={{ 'aria-label': src ? T.replaceImage : T.chooseImage }}
        >
          {(props) => (
            <Button
              {...props}
              variant="light"
              leftSection={<IconPhotoUp size={16} aria-hidden="true" />}
              loading={uploading}
            >
              {src ? T.replaceImage : T.chooseImage}
            </Button>
          )}
        </FileButton>
        <Text size="xs" c="dimmed">
          {block.original_filename ?? T.imageFormats}
        </Text>
      </Group>
      {problem ? (
        <Alert color="red" variant="light" icon={<IconAlertCircle size={18} aria-hidden="true" />} role="alert">
          {problem}
        </Alert>
      ) : null}
      <TextInput
        label={T.imageDescription}
        value={block.description}
        onChange={(event) => onChange({ description: event.currentTarget.value })}
        maxLength={1000}
        autoComplete="off"
      />
    </Stack>
  );
}
