/** Public address of a stored file (served under /storage), or null. */
export const storageUrl = (path: string | null | undefined): string | null =>
  path ? `/storage/${path.replace(/^\/+/, '')}` : null;
