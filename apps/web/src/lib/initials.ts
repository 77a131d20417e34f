/**
 * Initials for an avatar: the first letters of the first two words of a name, upper-cased.
 * 'Иванов Иван Иванович' → 'ИИ'; 'Мария' → 'М'; '' → ''.
 */
export function initials(name: string | null | undefined): string {
  if (!name) return '';
  return name
    .trim()
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((word) => Array.from(word)[0] ?? '')
    .join('')
    .toLocaleUpperCase('ru-RU');
}
