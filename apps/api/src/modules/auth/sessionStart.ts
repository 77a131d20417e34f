import { addMs, iso, type Clock } from '../../platform/clock.js';
import { IDLE_MS, REMEMBER_MS, type SessionRepository } from '../../platform/sessions.js';
import { randomToken, sha256 } from '../../platform/tokens.js';

/**
 * A new session for a user who has just proved who they are, whichever way (a password, the
 * company's OpenID Connect provider): one random token, only its hash stored, 30 days with
 * 'Запомнить меня' or else 12 idle hours (docs/rules.md §Sessions and CSRF). Returns the token for
 * the cookie.
 */
export async function openSession(
  sessions: SessionRepository,
  clock: Clock,
  input: {
    userId: number;
    remember: boolean;
    ip: string;
    userAgent: string | null;
    /** How they proved it (the journal's way in); a mailed password is asked to be replaced only after 'password'. */
    method: 'password' | 'ldap' | 'oidc';
  },
): Promise<string> {
  const now = clock.now();
  const token = randomToken();
  await sessions.create({
    tokenHash: sha256(token),
    userId: input.userId,
    remember: input.remember,
    expiresAt: iso(addMs(now, input.remember ? REMEMBER_MS : IDLE_MS)),
    now: iso(now),
    ip: input.ip,
    userAgent: input.userAgent?.slice(0, 500) ?? null,
    method: input.method,
  });
  return token;
}
