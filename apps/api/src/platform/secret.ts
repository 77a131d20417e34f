import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PRIVATE_FILE_MODE, ensurePrivateDir, tightenBestEffort } from '../lib/privateFiles.js';
import { randomToken } from './tokens.js';

/**
 * The key that signs CSRF tokens. APP_SECRET when set (required when several API processes share
 * one database); otherwise made once and kept in DATA_DIR so that restarts keep sessions usable.
 */
export function loadAppSecret(appSecret: string | undefined, dataDir: string): string {
  if (appSecret) return appSecret;
  const file = join(dataDir, 'app-secret');
  if (existsSync(file)) {
    tightenBestEffort(file, PRIVATE_FILE_MODE);
    return readFileSync(file, 'utf8').trim();
  }
  ensurePrivateDir(dataDir);
  const secret = randomToken() + randomToken();
  writeFileSync(file, secret, { mode: PRIVATE_FILE_MODE });
  chmodSync(file, PRIVATE_FILE_MODE);
  return secret;
}
