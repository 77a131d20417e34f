/** Texts that read the same in more than one feature: one wording, kept in one place. */

/** A course, lesson or test's published state (catalogue badges, constructor switches and dots). */
export const PUBLISHED_TEXTS = {
  published: 'Опубликован',
  unpublished: 'Не опубликован',
} as const;

/** The names of the buttons that move a category, module, lesson or test up or down its list. */
export const MOVE_TEXTS = {
  moveUp: (name: string) => `Переместить «${name}» выше`,
  moveDown: (name: string) => `Переместить «${name}» ниже`,
} as const;
