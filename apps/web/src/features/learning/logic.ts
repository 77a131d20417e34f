import { SCORM_FRAME_MESSAGE, safeLink, type LearnerBlock, type LearnerModule, type ModuleItem } from '@lms/contract';
import { formatDateTime } from '../../lib/lessonTime';
import { LEARNING_TEXTS as T } from './texts';

/** A finished lesson or a passed test (docs/product.md §Course page). */
export function isItemDone(item: ModuleItem): boolean {
  return item.type === 'lesson' ? item.completed_at !== null : item.is_passed === true;
}

/** 'Скрыть пройденные лекции': drops finished lessons and passed tests, then modules left empty. */
export function hideCompleted(modules: LearnerModule[]): LearnerModule[] {
  return modules
    .map((m) => ({ ...m, lessonsList: m.lessonsList.filter((item) => !isItemDone(item)) }))
    .filter((m) => m.lessonsList.length > 0);
}

/** The tooltip of an item (docs/product.md §Course page), or null when nothing happened to it yet. */
export function itemTooltip(item: ModuleItem): string | null {
  if (item.type === 'lesson') {
    if (item.completed_at) return T.finished(formatDateTime(item.completed_at));
    if (item.started_at) return T.started(formatDateTime(item.started_at));
    return null;
  }
  const at = item.completed_at ?? item.started_at;
  if (item.is_passed === true) return at ? T.finished(formatDateTime(at)) : null;
  if (item.is_passed === false) return at ? T.failed(formatDateTime(at)) : null;
  return null;
}

export interface ItemKey {
  type: 'lesson' | 'test';
  id: number;
}

/** The module holding an item, as the accordion's value. */
export function moduleOf(modules: LearnerModule[], item: ItemKey | null): string | null {
  if (!item) return null;
  const found = modules.find((m) => m.lessonsList.some((i) => i.type === item.type && i.id === item.id));
  return found ? String(found.id) : null;
}

/** The learner's current item on the course page: the first one not done. */
export function firstOpenItem(modules: LearnerModule[]): ItemKey | null {
  for (const m of modules) {
    const item = m.lessonsList.find((i) => !isItemDone(i));
    if (item) return { type: item.type, id: item.id };
  }
  return null;
}

/** Title and description blocks first, the others after them, each group in its own order. */
export function orderBlocks(blocks: LearnerBlock[]): LearnerBlock[] {
  const top = (b: LearnerBlock) => (b.type === 'title' || b.type === 'description' ? 0 : 1);
  return [...blocks].sort((a, b) => top(a) - top(b) || a.sort_order - b.sort_order);
}

function parseJson(text: string | null): unknown {
  if (!text) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

const str = (record: Record<string, unknown>, key: string): string | null => {
  const value = record[key];
  return typeof value === 'string' && value.trim() !== '' ? value : null;
};

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A video block's link: `content` is JSON `{url, videoId}`; null when it cannot be read. */
export function videoUrl(block: LearnerBlock): string | null {
  const data = parseJson(block.content);
  return isRecord(data) ? str(data, 'url') : null;
}

/** Storage address of a stored file path. */
function storagePath(path: string | null): string | null {
  if (!path) return null;
  return path.startsWith('/') ? path : `/storage/${path}`;
}

export interface ImageView {
  src: string | null;
  caption: string;
}

/** An image block: address, and the caption (its description, else 'Название файла: ...'). */
export function imageView(block: LearnerBlock): ImageView {
  const data = parseJson(block.content);
  const record = isRecord(data) ? data : {};
  const src = safeLink(str(record, 'url') ?? block.url ?? storagePath(str(record, 'file_path') ?? block.file_path));
  const description = str(record, 'description');
  const fileName = str(record, 'original_filename') ?? block.original_filename ?? '';
  return { src, caption: description ?? T.fileName(fileName) };
}

export interface LinkButton {
  title: string;
  url: string;
}

/** A button block's list of `{title, url}`; entries without a usable link are left out. */
export function linkButtons(block: LearnerBlock): LinkButton[] {
  const data = parseJson(block.content);
  if (!Array.isArray(data)) return [];
  return data.flatMap((entry: unknown) => {
    if (!isRecord(entry)) return [];
    const url = safeLink(str(entry, 'url'));
    const title = str(entry, 'title') ?? url;
    return url && title ? [{ title, url }] : [];
  });
}

/** The link of a neighbour item (docs/product.md §Course page). */
export const itemLink = (courseId: number, item: ItemKey): string => `/courses/${courseId}/${item.type}/${item.id}`;

/**
 * A message from the SCORM frame that says the package committed (docs/decisions.md §SCORM content):
 * only from that frame's window, from the origin its launch named ('null' for a sandboxed frame of
 * the default mode), and of the runtime's one type. Anything else on the page's message channel —
 * another frame, an extension, a package posting as someone else — is ignored.
 */
export function isScormCommit(
  event: Pick<MessageEvent, 'source' | 'origin' | 'data'>,
  frame: Window | null | undefined,
  origin: string,
): boolean {
  if (!frame || event.source !== frame || event.origin !== origin) return false;
  const data: unknown = event.data;
  return typeof data === 'object' && data !== null && 'type' in data && data.type === SCORM_FRAME_MESSAGE;
}
