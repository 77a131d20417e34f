import {
  FILE_MAX_BYTES,
  IMAGE_MAX_BYTES,
  type ButtonItem,
  type ConstructorModule,
  type LessonBlock,
  type ModuleLesson,
  type ModuleTest,
  type SaveBlock,
} from '@lms/contract';
import { normalizeQuery, textMatches } from '../../lib/search';
import { T } from './texts';

/** Who may open the constructor (docs/product.md §Constructor; docs/decisions.md: admins and authors). */
export const CONSTRUCTOR_PERMISSION = 'constructor.manage';

export function canUseConstructor(permissions: readonly string[] | undefined): boolean {
  return (permissions ?? []).includes(CONSTRUCTOR_PERMISSION);
}

// ── modules and their items ──

/** A lesson or a test of a module. */
export type ModuleItem = ModuleLesson | ModuleTest;

/** Modules in their order (sort_order, then id). */
export function sortedModules(modules: readonly ConstructorModule[]): ConstructorModule[] {
  return [...modules].sort((a, b) => a.sort_order - b.sort_order || a.id - b.id);
}

/** A module's lessons and tests as one list sorted by sort_order (docs/product.md §Constructor). */
export function moduleItems(module: Pick<ConstructorModule, 'lessons' | 'tests'>): ModuleItem[] {
  return [...module.lessons, ...module.tests].sort(
    (a, b) => a.sort_order - b.sort_order || (a.type === b.type ? a.id - b.id : a.type === 'lesson' ? -1 : 1),
  );
}

export const itemKey = (item: Pick<ModuleItem, 'type' | 'id'>): string => `${item.type}:${item.id}`;
export const moduleKey = (id: number): string => `module-${id}`;

/** Where an item opens in the constructor. */
export function itemPath(courseId: number, item: Pick<ModuleItem, 'type' | 'id'>): string {
  return item.type === 'lesson'
    ? `/management/constructor/${courseId}/${item.id}`
    : `/management/constructor/${courseId}/test/${item.id}`;
}

/** The first lesson of the first module, where the constructor opens (docs/product.md §Constructor); else null. */
export function firstLessonId(modules: readonly ConstructorModule[]): number | null {
  const first = sortedModules(modules)[0];
  if (!first) return null;
  return moduleItems(first).find((item) => item.type === 'lesson')?.id ?? null;
}

/** The module holding a lesson, if any. */
/** The lesson or test open on the right of the constructor. */
export type OpenItem = Pick<ModuleItem, 'type' | 'id'>;

/** The module that holds the item, if any. */
export function moduleOfItem(modules: readonly ConstructorModule[], item: OpenItem): ConstructorModule | undefined {
  return modules.find((m) => (item.type === 'lesson' ? m.lessons : m.tests).some((i) => i.id === item.id));
}

/** The item itself as the module list has it (its name and state), if it is there. */
export function findItem(modules: readonly ConstructorModule[], item: OpenItem): ModuleItem | undefined {
  const module = moduleOfItem(modules, item);
  return module && moduleItems(module).find((i) => i.type === item.type && i.id === item.id);
}

export const isOpenItem = (open: OpenItem | null, item: OpenItem): boolean =>
  open !== null && open.type === item.type && open.id === item.id;

export interface ShownModule {
  module: ConstructorModule;
  items: ModuleItem[];
}

/**
 * The modules and items a search shows (docs/product.md §Constructor): case-insensitive, by name. A module whose
 * name matches shows all its items; otherwise it shows only its matching items, and is left out
 * when none match. `expanded` lists the accordion values of the modules to open for the matches.
 */
export function searchModules(
  modules: readonly ConstructorModule[],
  query: string,
): { shown: ShownModule[]; expanded: string[] } {
  const q = normalizeQuery(query);
  const all = sortedModules(modules).map((module) => ({ module, items: moduleItems(module) }));
  if (q === '') return { shown: all, expanded: [] };
  const shown: ShownModule[] = [];
  const expanded: string[] = [];
  for (const { module, items } of all) {
    const matching = items.filter((item) => textMatches(q, item.name));
    if (textMatches(q, module.name)) {
      shown.push({ module, items });
      if (items.length > 0) expanded.push(moduleKey(module.id));
    } else if (matching.length > 0) {
      shown.push({ module, items: matching });
      expanded.push(moduleKey(module.id));
    }
  }
  return { shown, expanded };
}

/** The modules with a new order: sort_order is the position, from 0 (docs/product.md §Constructor). */
export function withModuleOrder(
  modules: readonly ConstructorModule[],
  orderedIds: readonly number[],
): ConstructorModule[] {
  const byId = new Map(modules.map((m) => [m.id, m]));
  return orderedIds.flatMap((id, index) => {
    const module = byId.get(id);
    return module ? [{ ...module, sort_order: index }] : [];
  });
}

/** One module's items renumbered in the given order (lessons and tests share one sequence). */
export function withItemOrder(
  modules: readonly ConstructorModule[],
  moduleId: number,
  ordered: readonly Pick<ModuleItem, 'type' | 'id'>[],
): ConstructorModule[] {
  const position = new Map(ordered.map((item, index) => [itemKey(item), index]));
  const renumber = <I extends ModuleItem>(item: I): I => ({ ...item, sort_order: position.get(itemKey(item)) ?? 0 });
  return modules.map((m) =>
    m.id === moduleId ? { ...m, lessons: m.lessons.map(renumber), tests: m.tests.map(renumber) } : m,
  );
}

/** A lesson's fields changed in the module list (after a rename or a publish). */
export function withLesson(
  modules: readonly ConstructorModule[],
  lesson: Pick<ModuleLesson, 'id'> & Partial<Pick<ModuleLesson, 'name' | 'is_published'>>,
): ConstructorModule[] {
  return modules.map((m) =>
    m.lessons.some((l) => l.id === lesson.id)
      ? { ...m, lessons: m.lessons.map((l) => (l.id === lesson.id ? { ...l, ...lesson } : l)) }
      : m,
  );
}

/** Every lesson and test that is not published yet, module by module, in order. */
export function unpublishedItems(modules: readonly ConstructorModule[]): ModuleItem[] {
  return sortedModules(modules).flatMap((m) => moduleItems(m).filter((item) => !item.is_published));
}

/**
 * The toasts of publish-all (docs/product.md §Constructor) from how many items were tried and which failed: the
 * count with its plural form, and every failed item by kind and name (issue 30).
 */
export function publishOutcome(tried: number, failed: readonly ModuleItem[]): { success?: string; error?: string } {
  if (tried === 0) return { success: T.allPublished };
  const published = tried - failed.length;
  const [only] = failed;
  const error =
    failed.length === 0
      ? undefined
      : failed.length === 1 && only
        ? T.publishItemError(only.type, only.name)
        : T.publishFailedItems(failed.length, failed.map((item) => T.namedItem(item.type, item.name)).join(', '));
  return {
    ...(published > 0 ? { success: T.publishedCount(published) } : {}),
    ...(error ? { error } : {}),
  };
}

// ── the lesson editor's blocks ──

export type EditableBlockType = 'text' | 'video' | 'image' | 'file' | 'button';
export const EDITABLE_BLOCK_TYPES: readonly EditableBlockType[] = ['text', 'video', 'image', 'file', 'button'];

interface BlockBase {
  /** The saved block's id, or a temporary 'tmp-…' id for a block not saved yet. */
  id: number | string;
}
export interface TextBlock extends BlockBase {
  type: 'text';
  html: string;
}
export interface VideoBlock extends BlockBase {
  type: 'video';
  url: string;
}
export interface ImageBlock extends BlockBase {
  type: 'image';
  file_path: string | null;
  original_filename: string | null;
  description: string;
}
export interface FileBlock extends BlockBase {
  type: 'file';
  file_path: string | null;
  original_filename: string | null;
}
export interface ButtonBlock extends BlockBase {
  type: 'button';
  buttons: ButtonItem[];
}
export type DraftBlock = TextBlock | VideoBlock | ImageBlock | FileBlock | ButtonBlock;

/** A fixed block on top of the page (title: order -2, description: -1). */
export interface FixedBlock {
  id: number | string;
  text: string;
}

/** What the lesson editor edits: the page title and description, and the blocks in order. */
export interface LessonDraft {
  title: FixedBlock;
  description: FixedBlock;
  blocks: DraftBlock[];
}

let tmpSeq = 0;
/** A temporary id for a new block; the server answers with the real one (docs/rules.md §Constructor). */
export function tmpId(): string {
  tmpSeq += 1;
  return `tmp-${Date.now().toString(36)}-${tmpSeq}`;
}

export const isSaved = (block: BlockBase): boolean => typeof block.id === 'number';

/** A new block of a type, as the add-block menu puts it (a button block starts with one 'Кнопка'). */
export function newBlock(type: EditableBlockType): DraftBlock {
  const id = tmpId();
  switch (type) {
    case 'text':
      return { id, type, html: '' };
    case 'video':
      return { id, type, url: '' };
    case 'image':
      return { id, type, file_path: null, original_filename: null, description: '' };
    case 'file':
      return { id, type, file_path: null, original_filename: null };
    case 'button':
      return { id, type, buttons: [{ title: T.defaultButtonLabel, url: '' }] };
  }
}

function record(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}
const str = (value: unknown): string => (typeof value === 'string' ? value : '');
const strOrNull = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);

/** A stored block as the editor holds it; title and description blocks are not among them. */
export function toDraftBlock(block: LessonBlock): DraftBlock | null {
  const { id, content } = block;
  switch (block.type) {
    case 'text':
      return { id, type: 'text', html: str(content) };
    case 'video':
      return { id, type: 'video', url: typeof content === 'string' ? content : str(record(content).url) };
    case 'image': {
      const c = typeof content === 'string' ? { description: content } : record(content);
      return {
        id,
        type: 'image',
        file_path: block.file_path ?? strOrNull(c.file_path),
        original_filename: block.original_filename ?? strOrNull(c.original_filename),
        description: str(c.description),
      };
    }
    case 'file':
      return { id, type: 'file', file_path: block.file_path, original_filename: block.original_filename };
    case 'button': {
      const items = Array.isArray(content) ? content : [];
      return { id, type: 'button', buttons: items.map((b) => ({ title: str(b.title), url: str(b.url) })) };
    }
    default:
      return null;
  }
}

/** The editor's state for a lesson's stored blocks (title and description made when missing). */
export function draftFromContents(contents: readonly LessonBlock[]): LessonDraft {
  const fixed = (type: 'title' | 'description'): FixedBlock => {
    const found = contents.find((b) => b.type === type);
    return found ? { id: found.id, text: str(found.content) } : { id: tmpId(), text: '' };
  };
  const blocks = [...contents]
    .filter((b) => b.type !== 'title' && b.type !== 'description')
    .sort((a, b) => a.sort_order - b.sort_order || a.id - b.id)
    .flatMap((b) => {
      const draft = toDraftBlock(b);
      return draft ? [draft] : [];
    });
  return { title: fixed('title'), description: fixed('description'), blocks };
}

/** The public address of a stored file ('/storage/…'). */
export function storagePath(filePath: string): string {
  return `/storage/${filePath.replace(/^\/+/, '').replace(/^storage\//, '')}`;
}

/** One block as PUT …/contents takes it. */
export function toSaveBlock(block: DraftBlock, sortOrder: number): SaveBlock {
  const base = { id: block.id, sort_order: sortOrder };
  switch (block.type) {
    case 'text':
      return { ...base, type: 'text', content: block.html, file_path: null, original_filename: null };
    case 'video':
      return { ...base, type: 'video', content: { url: block.url }, file_path: null, original_filename: null };
    case 'image':
      return {
        ...base,
        type: 'image',
        content: {
          url: block.file_path ? storagePath(block.file_path) : null,
          file_path: block.file_path,
          original_filename: block.original_filename,
          description: block.description,
        },
        file_path: block.file_path,
        original_filename: block.original_filename,
      };
    case 'file':
      return {
        ...base,
        type: 'file',
        content: null,
        file_path: block.file_path,
        original_filename: block.original_filename,
      };
    case 'button':
      return { ...base, type: 'button', content: block.buttons, file_path: null, original_filename: null };
  }
}

/** Every block of the lesson as PUT …/contents takes it: title (-2), description (-1), then 0, 1, 2… */
export function contentsPayload(draft: LessonDraft): SaveBlock[] {
  return [
    { id: draft.title.id, type: 'title', content: draft.title.text, sort_order: -2 },
    { id: draft.description.id, type: 'description', content: draft.description.text, sort_order: -1 },
    ...draft.blocks.map((block, index) => toSaveBlock(block, index)),
  ];
}

// ── the button block (docs/product.md §Lesson editor) ──

/** A second button may be added only while exactly one exists. */
export const canAddButton = (buttons: readonly ButtonItem[]): boolean => buttons.length === 1;
/** The first button cannot be deleted. */
export const canDeleteButton = (index: number): boolean => index > 0;

// ── uploads (docs/product.md §Lesson editor) ──

export const IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/webp', 'image/gif'] as const;
export const IMAGE_ACCEPT = IMAGE_TYPES.join(',');
const IMAGE_EXTENSIONS = /\.(jpe?g|png|webp|gif)$/i;

/** Why an image may not be uploaded as a lesson picture, or null when it may. */
export function imageFileProblem(file: Pick<File, 'type' | 'name' | 'size'>): string | null {
  const typeOk = file.type ? (IMAGE_TYPES as readonly string[]).includes(file.type) : IMAGE_EXTENSIONS.test(file.name);
  if (!typeOk) return T.badImage;
  if (file.size > IMAGE_MAX_BYTES) return T.imageTooLarge;
  return null;
}

/** Why a file may not be uploaded to a file block, or null when it may. */
export function uploadFileProblem(file: Pick<File, 'size'>): string | null {
  return file.size > FILE_MAX_BYTES ? T.fileTooLarge : null;
}

/** '12,5 МБ': a file size for people. */
export function formatBytes(bytes: number): string {
  const units = ['Б', 'КБ', 'МБ', 'ГБ'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  const digits = unit === 0 || value >= 100 ? 0 : 1;
  return `${value.toLocaleString('ru-RU', { maximumFractionDigits: digits })} ${units[unit]}`;
}
