import type { Clock } from '../../platform/clock.js';
import { MINUTE, addMs, iso } from '../../platform/clock.js';
import { tooManyRequests, unprocessable } from '../../platform/errors.js';
import { passwordGate } from '../../platform/passwordGate.js';
import { burnPasswordCheck, verifyPassword } from '../../platform/passwords.js';
import type { RateLimiter } from '../../platform/rateLimit.js';
import { IDLE_MS, REMEMBER_MS, type SessionRepository, type SessionUser } from '../../platform/sessions.js';
import { randomToken, sha256 } from '../../platform/tokens.js';
import type { AuthRepository } from './repository.js';

export const LOGIN_MESSAGES = {
  wrong: 'Неверный логин или пароль',
  tooMany: 'Слишком много неудачных попыток входа. Попробуйте через минуту.',
  tooManyFromIp: 'Слишком много попыток входа. Попробуйте позже.',
  success: 'Вы успешно авторизованы',
} as const;

/** Tries of one login from one address a minute, within the address's shared budget. */
const LOGIN_FAILURES_PER_MINUTE = 5;

export interface SignInResult {
  token: string;
  remember: boolean;
  user: SessionUser;
}

export class AuthService {
  constructor(
    private readonly repo: AuthRepository,
    private readonly sessions: SessionRepository,
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
    // Counted before the check, so that parallel guesses cannot all pass a read of the counter:
    // first the address's budget for any login, then this login's failures from the address.
    if (!(await this.limiter.spendIpAttempt(input.ip, now))) throw tooManyRequests(LOGIN_MESSAGES.tooManyFromIp);
    if ((await this.limiter.hit(key, now, MINUTE)) > LOGIN_FAILURES_PER_MINUTE) {
      throw tooManyRequests(LOGIN_MESSAGES.tooMany);
    }
    const candidate = await this.repo.findByLogin(login);
    // The gate refuses (429) rather than queue when the process already hashes at its limit.
    const ok = await passwordGate.run(async () => {
      if (candidate) return verifyPassword(candidate.passwordHash, input.password);
      await burnPasswordCheck(input.password);
      return false;
    });
    if (!candidate || !ok) {
      throw unprocessable(LOGIN_MESSAGES.wrong, { login: [LOGIN_MESSAGES.wrong] });
    }
    await this.limiter.reset(key);
    await this.limiter.giveIpAttemptBack(input.ip);
    const token = randomToken();
    const { user } = candidate;
    await this.sessions.create({
      tokenHash: sha256(token),
      userId: user.id,
      remember: input.remember,
      expiresAt: iso(addMs(now, input.remember ? REMEMBER_MS : IDLE_MS)),
      now: iso(now),
      ip: input.ip,
      userAgent: input.userAgent?.slice(0, 500) ?? null,
    });
    return { token, remember: input.remember, user };
  }

  async signOut(token: string): Promise<void> {
    await this.sessions.deleteByHash(sha256(token));
  }
}
