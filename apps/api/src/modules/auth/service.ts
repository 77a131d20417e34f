import type { Clock } from '../../platform/clock.js';
import { DAY, HOUR, MINUTE, addMs, iso } from '../../platform/clock.js';
import { tooManyRequests, unprocessable } from '../../platform/errors.js';
import { burnPasswordCheck, verifyPassword } from '../../platform/passwords.js';
import type { RateLimiter } from '../../platform/rateLimit.js';
import { randomToken, sha256 } from '../../platform/tokens.js';
import type { ActiveSession, AuthRepository, SessionUser } from './repository.js';

export const REMEMBER_MS = 30 * DAY;
export const IDLE_MS = 12 * HOUR;
/** Activity is written at most once a minute per session, not on every request. */
const TOUCH_EVERY_MS = MINUTE;
const LOGIN_FAILURES_PER_MINUTE = 5;

export const LOGIN_MESSAGES = {
  wrong: 'Неверный логин или пароль',
  tooMany: 'Слишком много неудачных попыток входа. Попробуйте через минуту.',
  success: 'Вы успешно авторизованы',
} as const;

export interface SignInResult {
  token: string;
  remember: boolean;
  user: SessionUser;
}

export class AuthService {
  constructor(
    private readonly repo: AuthRepository,
    private readonly limiter: RateLimiter,
    private readonly clock: Clock,
  ) {}

  async signIn(input: {
    login: string;
    password: string;
    remember: boolean;
    ip: string;
    userAgent: string | null;
  }): Promise<SignInResult> {
    const login = input.login.trim().toLowerCase();
    const key = `login:${login}:${input.ip}`;
    const now = this.clock.now();
    // Counted before the check, so that parallel guesses cannot all pass a read of the counter.
    if ((await this.limiter.hit(key, now, MINUTE)) > LOGIN_FAILURES_PER_MINUTE) {
      throw tooManyRequests(LOGIN_MESSAGES.tooMany);
    }
    const user = await this.repo.findUserByEmail(login);
    const ok = user
      ? await verifyPassword(user.password_hash, input.password)
      : await burnPasswordCheck(input.password);
    if (!user || !ok) {
      throw unprocessable(LOGIN_MESSAGES.wrong, { login: [LOGIN_MESSAGES.wrong] });
    }
    await this.limiter.reset(key);
    const token = randomToken();
    await this.repo.createSession({
      tokenHash: sha256(token),
      userId: user.id,
      remember: input.remember,
      expiresAt: iso(addMs(now, input.remember ? REMEMBER_MS : IDLE_MS)),
      now: iso(now),
      ip: input.ip,
      userAgent: input.userAgent?.slice(0, 500) ?? null,
    });
    await this.repo.setLastActivity(user.id, iso(now));
    return { token, remember: input.remember, user };
  }

  /** The user of a session cookie, or null when it is unknown or expired (an expired one is removed). */
  async resolve(token: string): Promise<ActiveSession | null> {
    const session = await this.repo.findSession(sha256(token));
    if (!session) return null;
    const now = this.clock.now();
    if (new Date(session.expiresAt).getTime() <= now.getTime()) {
      await this.repo.deleteSessionById(session.sessionId);
      return null;
    }
    if (now.getTime() - new Date(session.lastSeenAt).getTime() >= TOUCH_EVERY_MS) {
      const expiresAt = session.remember ? session.expiresAt : iso(addMs(now, IDLE_MS));
      await this.repo.touch(session.sessionId, session.user.id, iso(now), expiresAt);
    }
    return session;
  }

  async signOut(token: string): Promise<void> {
    await this.repo.deleteSessionByHash(sha256(token));
  }

  async endAllSessions(userId: number): Promise<void> {
    await this.repo.deleteSessionsOfUser(userId);
  }
}
