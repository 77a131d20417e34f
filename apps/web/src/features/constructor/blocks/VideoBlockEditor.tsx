import { AspectRatio, Anchor, Stack, Text, TextInput } from '@mantine/core';
import { videoEmbedFor } from '@lms/contract';
import type { VideoBlock } from '../logic';
import { T } from '../texts';

/** A player for a YouTube, RuTube or VK Video link; nothing for any other link (docs/product.md §Lesson editor). */
export function VideoPreview({ url }: { url: string }) {
  const embed = videoEmbedFor(url);
  if (!embed) return null;
  return (
    <AspectRatio ratio={16 / 9} maw={720}>
      <iframe
        src={embed}
        title={T.videoPreview}
        style={{ border: 0, borderRadius: 'var(--mantine-radius-md)' }}
        allow="autoplay; encrypted-media; fullscreen; picture-in-picture"
        allowFullScreen
        loading="lazy"
        referrerPolicy="strict-origin-when-cross-origin"
      />
    </AspectRatio>
  );
}

interface VideoBlockEditorProps {
  block: VideoBlock;
  editing: boolean;
  onChange: (url: string) => void;
}

/** The Видео block: a link, with a preview only when it is a valid video-hosting link. */
export function VideoBlockEditor({ block, editing, onChange }: VideoBlockEditorProps) {
  const hasPreview = videoEmbedFor(block.url) !== null;
  if (!editing) {
    if (block.url.trim() === '') {
      return (
        <Text c="dimmed" size="sm">
          {T.noVideo}
        </Text>
      );
    }
    return (
      <Stack gap="xs">
        <VideoPreview url={block.url} />
        {hasPreview ? null : (
          <Anchor
            href={block.url}
            target="_blank"
            rel="noopener noreferrer"
            size="sm"
            style={{ wordBreak: 'break-all' }}
          >
            {block.url}
          </Anchor>
        )}
      </Stack>
    );
  }
  return (
    <Stack gap="sm">
      <TextInput
        label={T.videoLink}
        placeholder={T.videoPlaceholder}
        value={block.url}
        onChange={(event) => onChange(event.currentTarget.value)}
        description={hasPreview ? undefined : T.videoHint}
        maxLength={2000}
        type="url"
        autoComplete="off"
      />
      <VideoPreview url={block.url} />
    </Stack>
  );
}
