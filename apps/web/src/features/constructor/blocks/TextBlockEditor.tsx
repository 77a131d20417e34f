import { Center, Loader, Text, Typography } from '@mantine/core';
import DOMPurify from 'dompurify';
import { lazy, Suspense, useMemo } from 'react';
import classes from '../Constructor.module.css';
import type { TextBlock } from '../logic';
import { T } from '../texts';

const RichText = lazy(() => import('./RichText'));

/** Lesson text as stored, sanitized again before it is shown (docs/rules.md §Rich text). */
export function SafeLessonHtml({ html }: { html: string }) {
  const clean = useMemo(() => DOMPurify.sanitize(html, { ADD_ATTR: ['target'] }), [html]);
  if (clean.trim() === '' || clean === '<p></p>') {
    return (
      <Text c="dimmed" size="sm">
        {T.emptyText}
      </Text>
    );
  }
  return (
    <Typography className={classes.preview}>
      <div dangerouslySetInnerHTML={{ __html: clean }} />
    </Typography>
  );
}

interface TextBlockEditorProps {
  block: TextBlock;
  editing: boolean;
  onChange: (html: string) => void;
}

/** The Текст block: Mantine's TipTap editor (bundled, never a CDN script), 500 px high (docs/product.md §Lesson editor). */
export function TextBlockEditor({ block, editing, onChange }: TextBlockEditorProps) {
  if (!editing) return <SafeLessonHtml html={block.html} />;
  return (
    <Suspense
      fallback={
        <Center h={500} role="status" aria-label={T.loading}>
          <Loader size="sm" />
        </Center>
      }
    >
      <RichText initial={block.html} onChange={onChange} />
    </Suspense>
  );
}
