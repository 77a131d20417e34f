/**
 * The name a greeting uses: the second word of the full name ('Фамилия Имя [Отчество]' → 'Имя'),
 * or the only word when there is one.
 */
export function greetingName(fullName: string | null | undefined): string {
  const words = (fullName ?? '').trim().split(/\s+/).filter(Boolean);
  return words[1] ?? words[0] ?? '';
}

/** '<Имя>, добрый день!' (docs/product.md §Home); 'Добрый день!' when the name is unknown. */
export function greeting(fullName: string | null | undefined): string {
  const name = greetingName(fullName);
  return name ? `${name}, добрый день!` : 'Добрый день!';
}
