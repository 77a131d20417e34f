import { chmodSync, closeSync, existsSync, mkdirSync, openSync } from 'node:fs';

/**
 * The database, its WAL files, uploaded files, mails with passwords and the CSRF key are readable
 * by the server's own user only (0700 folders, 0600 files), whatever the umask of the shell that
 * started it: another account on the same machine must not read them.
 */
export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

/**
 * Creates a folder (and missing parents) as owner-only. An existing folder is tightened when
 * `tighten` is set: for folders that belong to the platform, not for one an operator chose.
 */
export function ensurePrivateDir(path: string, opts: { tighten?: boolean } = {}): void {
  mkdirSync(path, { recursive: true, mode: PRIVATE_DIR_MODE });
  if (opts.tighten) tightenBestEffort(path, PRIVATE_DIR_MODE);
}

/**
 * Makes sure a file exists as owner-only before a library creates it with its own mode (SQLite
 * takes the umask's; its -wal and -shm files then copy the database file's mode). An existing
 * file, e.g. from an older version, is tightened.
 */
export function ensurePrivateFile(path: string): void {
  if (!existsSync(path)) closeSync(openSync(path, 'a', PRIVATE_FILE_MODE));
  tightenBestEffort(path, PRIVATE_FILE_MODE);
}

/** Tightens a path if it exists; a file owned by someone else (EPERM) is left as it is. */
export function tightenBestEffort(path: string, mode: number): void {
  try {
    chmodSync(path, mode);
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code !== 'ENOENT' && code !== 'EPERM') throw error;
  }
}
