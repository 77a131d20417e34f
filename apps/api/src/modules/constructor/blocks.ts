import {
  BUTTON_LABEL_MAX,
  CONSTRUCTOR_MESSAGES as M,
  MAX_BUTTONS,
  UNSAFE_IN_LINE as UNSAFE,
  buttonItem,
  cleanFileName,
  imageContent,
  isSafeLink,
  parseVideoLink,
  type BlockType,
  type LessonBlock,
  type SaveBlock,
} from '@lms/contract';
import { z } from 'zod';
import { unprocessable } from '../../platform/errors.js';
import { sanitizeLessonHtml } from '../../platform/sanitize.js';
import { storageUrl } from '../../platform/storageUrl.js';
import type { BlockRow, BlockValues } from '../courses/structure.js';

/** Title and description blocks sit at fixed places on top (docs/product.md §Lesson editor); others count from 0. */
export const FIXED_ORDER: Partial<Record<BlockType, number>> = { title: -2, description: -1 };

const TEXT_MAX = 1_000_000;
const PLAIN_MAX = 1000;
// One-line texts refuse what names refuse (UNSAFE, the contract's one rule); file names lose it.
const fileName = (name: string | null | undefined) => (name ? cleanFileName(name, '') || null : null);

const bad = (message: string = M.badBlock, index?: number) =>
  unprocessable(message, { [index === undefined ? 'contents' : `contents.${index}`]: [message] });

/** A link a block may keep: none yet (''), or one the lesson page may open (contract `safeLink`). */
const keepableLink = (raw: string): boolean => raw.trim() === '' || isSafeLink(raw);

function plain(value: unknown, index: number): string {
  if (value === undefined || value === null) return '';
  if (typeof value !== 'string' || value.length > PLAIN_MAX || UNSAFE.test(value)) throw bad(M.badBlock, index);
  return value.trim();
}

/**
 * Checks one block sent by the editor and turns it into the row to store: text HTML is sanitized,
 * a video link gets its id (or none, for another host), buttons are at most two with short labels
 * and safe links, and an uploaded file must be one the server stored (`knownFiles`).
 */
export function blockValues(block: SaveBlock, index: number, knownFiles: ReadonlySet<string>): BlockValues {
  const fixed = FIXED_ORDER[block.type];
  const sort_order = fixed ?? Math.max(0, block.sort_order);
  const none = { file_path: null, original_filename: null };
  const file = (path: string | null | undefined): string | null => {
    if (!path) return null;
    const normalized = path.replace(/^\/?storage\//, '').replace(/^\/+/, '');
    if (!knownFiles.has(normalized)) throw bad(M.unknownFile, index);
    return normalized;
  };
  switch (block.type) {
    case 'title':
    case 'description':
      return { type: block.type, content: plain(block.content, index), sort_order, ...none };
    case 'text': {
      const html = block.content ?? '';
      if (typeof html !== 'string' || html.length > TEXT_MAX) throw bad(M.badBlock, index);
      return { type: 'text', content: sanitizeLessonHtml(html), sort_order, ...none };
    }
    case 'video': {
      const raw = block.content;
      const url = typeof raw === 'string' ? raw : z.object({ url: z.string().max(2000) }).safeParse(raw).data?.url;
      if (url === undefined) throw bad(M.badBlock, index);
      if (!keepableLink(url)) throw bad(M.badVideoLink, index);
      // Another host's link is kept as typed; it has no id, no player, and opens in a new window.
      const link = parseVideoLink(url);
      return {
        type: 'video',
        content: JSON.stringify({ url: url.trim(), videoId: link?.videoId ?? null }),
        sort_order,
        ...none,
      };
    }
    case 'image': {
      const raw = typeof block.content === 'string' ? { description: block.content } : (block.content ?? {});
      const parsed = imageContent.safeParse(raw);
      if (!parsed.success) throw bad(M.badBlock, index);
      const path = file(parsed.data.file_path ?? block.file_path);
      const name = fileName(parsed.data.original_filename ?? block.original_filename);
      const description = plain(parsed.data.description ?? '', index);
      return {
        type: 'image',
        content: JSON.stringify({
          url: storageUrl(path),
          file_path: path,
          original_filename: path ? name : null,
          description,
        }),
        sort_order,
        file_path: path,
        original_filename: path ? name : null,
      };
    }
    case 'file': {
      const path = file(block.file_path);
      const name = fileName(block.original_filename);
      return { type: 'file', content: null, sort_order, file_path: path, original_filename: path ? name : null };
    }
    case 'button': {
      const parsed = z.array(buttonItem).safeParse(block.content ?? []);
      if (!parsed.success) throw bad(M.badBlock, index);
      if (parsed.data.length > MAX_BUTTONS) throw bad(M.tooManyButtons, index);
      const buttons = parsed.data.map((b) => ({ title: b.title.trim(), url: b.url.trim() }));
      if (buttons.some((b) => b.title.length > BUTTON_LABEL_MAX)) throw bad(M.buttonLabel, index);
      if (buttons.some((b) => UNSAFE.test(b.title))) throw bad(M.badBlock, index);
      if (buttons.some((b) => !keepableLink(b.url))) throw bad(M.badButtonLink, index);
      return { type: 'button', content: JSON.stringify(buttons), sort_order, ...none };
    }
  }
}

/** A stored block as the constructor receives it: structured contents parsed. */
export function toLessonBlock(row: BlockRow): LessonBlock {
  const type = row.type as BlockType;
  let content: LessonBlock['content'] = row.content;
  if ((type === 'video' || type === 'image' || type === 'button') && row.content) {
    try {
      content = JSON.parse(row.content) as LessonBlock['content'];
    } catch {
      // A plain description stored by an older editor stays a string.
      content = row.content;
    }
  }
  return {
    id: row.id,
    type,
    content,
    file_path: row.file_path,
    original_filename: row.original_filename,
    sort_order: row.sort_order,
  };
}
