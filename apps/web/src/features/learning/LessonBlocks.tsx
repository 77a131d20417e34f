import { safeLink, videoEmbedFor, type LearnerBlock } from '@lms/contract';
import { Anchor, Button, Group, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconDownload, IconExternalLink, IconFile, IconVideo } from '@tabler/icons-react';
import { useMemo } from 'react';
import { sanitizeRichText } from '../../lib/richText';
import { imageView, linkButtons, orderBlocks, videoUrl } from './logic';
import classes from './Learning.module.css';
import { LEARNING_TEXTS as T, SUCCESS_GREEN } from './texts';

function OpenVideoLink({ href }: { href: string }) {
  return (
    <Anchor href={href} target="_blank" rel="noopener noreferrer" size="sm">
      <Group gap={4} component="span" wrap="nowrap">
        <IconExternalLink size={14} aria-hidden />
        {T.openVideo}
      </Group>
    </Anchor>
  );
}

/**
 * A video (docs/product.md §Lesson page): the player of a YouTube, RuTube or VK Video link with a link to open it; a
 * link on another host (or a file of this site) has no player and is only opened in a new window; a
 * block without a link that may be opened shows 'Ошибка при загрузке видео'.
 */
function VideoBlock({ block }: { block: LearnerBlock }) {
  const link = safeLink(videoUrl(block));
  if (!link) {
    return (
      <Text c="red" role="alert">
        {T.videoError}
      </Text>
    );
  }
  const embed = videoEmbedFor(link);
  if (!embed) {
    return (
      <Paper withBorder radius="md" p="md" data-video="external">
        <Group gap="sm" wrap="nowrap" align="flex-start">
          <ThemeIcon variant="light" size={40} radius="md" aria-hidden>
            <IconVideo size={22} />
          </ThemeIcon>
          <Stack gap={4} style={{ minWidth: 0 }}>
            <Text size="sm">{T.videoElsewhere}</Text>
            <OpenVideoLink href={link} />
          </Stack>
        </Group>
      </Paper>
    );
  }
  return (
    <Stack gap={6}>
      <iframe
        className={classes.video}
        src={embed}
        title={T.videoTitle}
        allow="autoplay; encrypted-media; fullscreen; picture-in-picture; screen-wake-lock"
        allowFullScreen
        loading="lazy"
        referrerPolicy="strict-origin-when-cross-origin"
      />
      <OpenVideoLink href={link} />
    </Stack>
  );
}

function TextBlock({ block }: { block: LearnerBlock }) {
  const html = useMemo(() => sanitizeRichText(block.content), [block.content]);
  return <div className={classes.richText} dangerouslySetInnerHTML={{ __html: html }} />;
}

function ImageBlock({ block }: { block: LearnerBlock }) {
  const { src, caption } = imageView(block);
  return (
    <figure style={{ margin: 0 }}>
      {src ? <img src={src} alt={caption} className={classes.image} loading="lazy" /> : null}
      <Text component="figcaption" size="sm" c="dimmed" mt={6}>
        {caption}
      </Text>
    </figure>
  );
}

function FileBlock({ block }: { block: LearnerBlock }) {
  const href = safeLink(block.url);
  const name = block.original_filename?.trim() || T.defaultFile;
  return (
    <Paper withBorder p="sm" radius="md">
      <Group gap="sm" wrap="nowrap">
        <IconFile size={28} aria-hidden color="var(--mantine-color-blue-7)" />
        <Stack gap={0} style={{ minWidth: 0 }}>
          <Text fw={600} truncate>
            {name}
          </Text>
          {href ? (
            <Anchor href={href} download={name} size="sm">
              <Group gap={4} component="span" wrap="nowrap">
                <IconDownload size={14} aria-hidden />
                {T.download}
              </Group>
            </Anchor>
          ) : null}
        </Stack>
      </Group>
    </Paper>
  );
}

function ButtonBlock({ block }: { block: LearnerBlock }) {
  const buttons = linkButtons(block);
  if (buttons.length === 0) return null;
  return (
    <Group gap="sm">
      {buttons.map((button, index) => (
        <Button
          key={`${index}-${button.url}`}
          component="a"
          href={button.url}
          target="_blank"
          rel="noopener noreferrer"
          color={index === 0 ? SUCCESS_GREEN : undefined}
          variant={index === 0 ? 'filled' : 'light'}
        >
          {button.title}
        </Button>
      ))}
    </Group>
  );
}

function Block({ block }: { block: LearnerBlock }) {
  switch (block.type) {
    case 'title':
      return (
        <Title order={2} fz={{ base: 20, sm: 22 }}>
          {block.content}
        </Title>
      );
    case 'description':
      return (
        <Text c="dimmed" style={{ whiteSpace: 'pre-line' }}>
          {block.content}
        </Text>
      );
    case 'video':
      return <VideoBlock block={block} />;
    case 'text':
      return <TextBlock block={block} />;
    case 'image':
      return <ImageBlock block={block} />;
    case 'file':
      return <FileBlock block={block} />;
    case 'button':
      return <ButtonBlock block={block} />;
  }
}

/** A lesson's blocks in order (docs/product.md §Lesson page): title and description on top, the others after. */
export function LessonBlocks({ blocks }: { blocks: LearnerBlock[] }) {
  const ordered = useMemo(() => orderBlocks(blocks), [blocks]);
  return (
    <Stack gap="lg">
      {ordered.map((block) => (
        <div key={block.id} data-block={block.type}>
          <Block block={block} />
        </div>
      ))}
    </Stack>
  );
}
