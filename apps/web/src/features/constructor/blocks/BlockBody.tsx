import type { DraftBlock } from '../logic';
import { ButtonBlockEditor } from './ButtonBlockEditor';
import { FileBlockEditor } from './FileBlockEditor';
import { ImageBlockEditor } from './ImageBlockEditor';
import { TextBlockEditor } from './TextBlockEditor';
import { VideoBlockEditor } from './VideoBlockEditor';

/** The editor of one content block of the lesson, by its type; `onChange` updates the draft block. */
export function BlockBody({
  block,
  editing,
  lessonId,
  onChange,
}: {
  block: DraftBlock;
  editing: boolean;
  lessonId: number;
  onChange: (update: (b: DraftBlock) => DraftBlock) => void;
}) {
  switch (block.type) {
    case 'text':
      return (
        <TextBlockEditor
          block={block}
          editing={editing}
          onChange={(html) => onChange((b) => (b.type === 'text' ? { ...b, html } : b))}
        />
      );
    case 'video':
      return (
        <VideoBlockEditor
          block={block}
          editing={editing}
          onChange={(url) => onChange((b) => (b.type === 'video' ? { ...b, url } : b))}
        />
      );
    case 'image':
      return (
        <ImageBlockEditor
          block={block}
          editing={editing}
          lessonId={lessonId}
          onChange={(patch) => onChange((b) => (b.type === 'image' ? { ...b, ...patch } : b))}
        />
      );
    case 'file':
      return (
        <FileBlockEditor
          block={block}
          editing={editing}
          lessonId={lessonId}
          onChange={(patch) => onChange((b) => (b.type === 'file' ? { ...b, ...patch } : b))}
        />
      );
    case 'button':
      return (
        <ButtonBlockEditor
          block={block}
          editing={editing}
          onChange={(buttons) => onChange((b) => (b.type === 'button' ? { ...b, buttons } : b))}
        />
      );
  }
}
