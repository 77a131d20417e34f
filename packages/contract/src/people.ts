/** A person's name as the users table keeps it. */
export interface PersonName {
  first_name: string;
  last_name: string;
}

const firstLetter = (word: string | null | undefined): string => Array.from(word?.trim() ?? '')[0] ?? '';

/**
 * The letters of an avatar, the same on every screen: the first letter of the first name, then of
 * the last name, upper-cased ('Иван', 'Петров' → 'ИП'). With neither, the first letter of
 * `fallback` (a name shown whole, e.g. of an account without parts); '' when there is nothing.
 */
export function initials(person: Partial<PersonName> | null | undefined, fallback?: string | null): string {
  const letters = `${firstLetter(person?.first_name)}${firstLetter(person?.last_name)}` || firstLetter(fallback);
  return letters.toLocaleUpperCase('ru-RU');
}
