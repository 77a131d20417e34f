/**
 * Russian plural forms: the one rule for every number the client or the server prints next to a
 * noun (screens, mails, messages).
 */

/** The three Russian noun forms after a number: one (1, 21), few (2–4, 22–24), many (0, 5–20, 11–14). */
export type RuForms = readonly [one: string, few: string, many: string];

/**
 * The form of a Russian noun that goes with `count`: 1 → 'день', 2 → 'дня', 5 → 'дней',
 * 11 → 'дней', 21 → 'день', 22 → 'дня', 111 → 'дней'. A fraction takes the 'few' form (1,5 дня).
 * Worked out by arithmetic, so the answer never depends on the runtime's locale data.
 */
export function pluralRu(count: number, forms: RuForms): string {
  if (!Number.isFinite(count)) return forms[2];
  if (!Number.isInteger(count)) return forms[1];
  const n = Math.abs(count);
  const last = n % 10;
  const lastTwo = n % 100;
  if (last === 1 && lastTwo !== 11) return forms[0];
  if (last >= 2 && last <= 4 && (lastTwo < 12 || lastTwo > 14)) return forms[1];
  return forms[2];
}

/** `count` followed by the matching noun form: formatCount(3, DAY_FORMS) → '3 дня'. */
export function formatCount(count: number, forms: RuForms): string {
  return `${count} ${pluralRu(count, forms)}`;
}

/**
 * 'done/total noun', read 'done из total': the noun goes with `total`, in the genitive that follows
 * 'из' — '0/1 лекции', '2/3 лекций', '5/21 лекции'. `forms` are those genitive forms; `separator`
 * is what stands between the numbers ('/' on cards, ' / ' on the course page).
 */
export function formatOutOf(done: number, total: number, forms: RuForms, separator = '/'): string {
  return `${done}${separator}${total} ${pluralRu(total, forms)}`;
}

export const DAY_FORMS: RuForms = ['день', 'дня', 'дней'];
/** 'из 1 лекции', 'из 2 лекций', 'из 5 лекций' (docs/product.md §Course card: 'X/Y лекций'). */
export const OF_LECTURES: RuForms = ['лекции', 'лекций', 'лекций'];
/** 'из 1 теста', 'из 2 тестов', 'из 5 тестов' (docs/product.md §Course card: 'X/Y тестов'). */
export const OF_TESTS: RuForms = ['теста', 'тестов', 'тестов'];
/** 'не более 1 символа', 'не более 2 символов', 'не более 255 символов'. */
export const OF_CHARACTERS: RuForms = ['символа', 'символов', 'символов'];
