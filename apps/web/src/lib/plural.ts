/** The three Russian noun forms after a number: one (1, 21), few (2–4, 22–24), many (0, 5–20, 11–14). */
export type RuForms = readonly [one: string, few: string, many: string];

const rules = new Intl.PluralRules('ru-RU');

/**
 * The form of a Russian noun that goes with `count` (Intl.PluralRules('ru')): 1 → 'день',
 * 2 → 'дня', 5 → 'дней', 11 → 'дней', 21 → 'день', 22 → 'дня'. A fraction takes the 'few' form
 * (1,5 дня).
 */
export function pluralRu(count: number, forms: RuForms): string {
  if (!Number.isFinite(count)) return forms[2];
  if (!Number.isInteger(count)) return forms[1];
  switch (rules.select(Math.abs(count))) {
    case 'one':
      return forms[0];
    case 'few':
      return forms[1];
    default:
      return forms[2];
  }
}

/** `count` followed by the matching noun form: formatCount(3, DAY_FORMS) → '3 дня'. */
export function formatCount(count: number, forms: RuForms): string {
  return `${count} ${pluralRu(count, forms)}`;
}

export const DAY_FORMS: RuForms = ['день', 'дня', 'дней'];
