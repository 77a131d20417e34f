import { randomInt } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';

// 2 = Argon2id (the package's const enum cannot be imported with isolatedModules).
const OPTIONS = { algorithm: 2 as const };

export const hashPassword = (password: string): Promise<string> => hash(password, OPTIONS);

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

/** Computed once so that an unknown login costs the same time as a wrong password. */
let dummyHash: Promise<string> | undefined;
export async function burnPasswordCheck(password: string): Promise<void> {
  dummyHash ??= hashPassword('dummy-password-for-timing');
  await verifyPassword(await dummyHash, password);
}

// No look-alike characters (0/O, 1/l/I), so that a mailed password is easy to type.
const ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnpqrstuvwxyz23456789';
const DIGITS = '23456789';

/** A random password of at least 12 characters with letters of both cases and digits. */
export function generatePassword(length = 14): string {
  for (;;) {
    let out = '';
    for (let i = 0; i < length; i++) out += ALPHABET[randomInt(ALPHABET.length)];
    if (/[A-Z]/.test(out) && /[a-z]/.test(out) && /\d/.test(out)) return out;
    out = out.slice(0, -1) + DIGITS[randomInt(DIGITS.length)];
    if (/[A-Z]/.test(out) && /[a-z]/.test(out)) return out;
  }
}
