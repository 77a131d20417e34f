import DOMPurify from 'dompurify';
import { useMemo } from 'react';

/** Inline formatting that a table cell may keep; everything else (scripts, handlers, links) goes. */
const CELL_CONFIG = {
  ALLOWED_TAGS: ['b', 'strong', 'i', 'em', 'u', 's', 'mark', 'small', 'sub', 'sup', 'br', 'span'],
  ALLOWED_ATTR: [] as string[],
};

/** Sanitizes a text as HTML (DOMPurify) before it is put into the page (docs/product.md §Settings, docs/architecture.md §Stack). */
export function sanitizeCell(html: string | null | undefined): string {
  return DOMPurify.sanitize(html ?? '', CELL_CONFIG);
}

interface SafeHtmlProps {
  html: string | null | undefined;
  className?: string;
}

/** A table cell's content rendered as sanitized HTML. */
export function SafeHtml({ html, className }: SafeHtmlProps) {
  const clean = useMemo(() => sanitizeCell(html), [html]);
  return <span className={className} dangerouslySetInnerHTML={{ __html: clean }} />;
}
