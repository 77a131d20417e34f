import type { Clock } from '../../platform/clock.js';
import { MINUTE } from '../../platform/clock.js';
import { tooManyRequests, unprocessable } from '../../platform/errors.js';
import { passwordGate } from '../../platform/passwordGate.js';
import { burnPasswordCheck, verifyPassword } from '../../platform/passwords.js';
import type { RateLimiter } from '../../platform/rateLimit.js';
import type { SessionRepository, SessionUser } from '../../platform/sessions.js';
import { sha256 } from '../../platform/tokens.js';
import type { AuthRepository } from './repository.js';
import { openSession } from './sessionStart.js';

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
    const { user } = candidate;
    // The same session whichever way the user proved who they are (sessionStart.ts).
    const token = await openSession(this.sessions, this.clock, {
      userId: user.id,
      remember: input.remember,
      ip: input.ip,
      userAgent: input.userAgent,
    });
    return { token, remember: input.remember, user };
  }

  async signOut(token: string): Promise<void> {
    await this.sessions.deleteByHash(sha256(token));
  }
}
