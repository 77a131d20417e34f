import type { SignInFailure, SignInMethod } from '@lms/contract';
import type { Clock } from '../../platform/clock.js';
import { MINUTE } from '../../platform/clock.js';
import { HttpError, tooManyRequests, unprocessable } from '../../platform/errors.js';
import { passwordGate } from '../../platform/passwordGate.js';
import { burnPasswordCheck, verifyPassword } from '../../platform/passwords.js';
import type { RateLimiter } from '../../platform/rateLimit.js';
import type { SessionRepository, SessionUser } from '../../platform/sessions.js';
import { sha256 } from '../../platform/tokens.js';
import type { DirectoryLogin, DirectoryVerdict } from '../directory/passwords.js';
import type { SignIns } from '../signins/service.js';
import type { AuthRepository, SignInCandidate } from './repository.js';
import { openSession } from './sessionStart.js';

/** The directory's password check (LDAP_AUTH=on), or null. */
export type DirectoryPasswords = (login: DirectoryLogin, password: string) => Promise<DirectoryVerdict>;

export const LOGIN_MESSAGES = {
  wrong: 'Неверный логин или пароль',
  tooMany: 'Слишком много неудачных попыток входа. Попробуйте через минуту.',
  tooManyFromIp: 'Слишком много попыток входа. Попробуйте позже.',
  success: 'Вы успешно авторизованы',
  directoryUnavailable: 'Не удалось проверить пароль в Active Directory. Попробуйте позже.',
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
    private readonly signIns: SignIns,
    private readonly directoryPasswords: DirectoryPasswords | null,
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
    const { method, failure } = await this.judge(candidate, login, input.password);
    const record = () =>
      this.signIns.record({
        userId: candidate?.user.id ?? null,
        login,
        method,
        failure,
        ip: input.ip,
        userAgent: input.userAgent,
      });
    if (failure !== null || !candidate) {
      await record();
      if (failure === 'directory_unavailable') throw new HttpError(503, LOGIN_MESSAGES.directoryUnavailable);
      throw unprocessable(LOGIN_MESSAGES.wrong, { login: [LOGIN_MESSAGES.wrong] });
    }
    await this.limiter.reset(key);
    await this.limiter.giveIpAttemptBack(input.ip);
    // The same session whichever way the user proved who they are (sessionStart.ts).
    const token = await openSession(this.sessions, this.clock, {
      userId: candidate.user.id,
      remember: input.remember,
      ip: input.ip,
      userAgent: input.userAgent,
      method,
    });
    await record();
    // A password an administrator mailed is the platform's: the directory's user keeps their own.
    const user = method === 'password' ? candidate.user : { ...candidate.user, must_change_password: false };
    return { token, remember: input.remember, user };
  }

  /**
   * Which way, if any, lets this login in with this password (docs/rules.md §Sign-in): the platform's
   * own password, unless 'Только вход через SSO' closes it for an account not created by hand; then,
   * with LDAP_AUTH, the directory's. The directory is asked for unknown logins too, so that the
   * answer's time does not tell who has an account.
   */
  private async judge(
    candidate: SignInCandidate | undefined,
    login: string,
    password: string,
  ): Promise<{ method: SignInMethod; failure: SignInFailure | null }> {
    const ownPassword = !candidate || candidate.origin === 'manual' || !(await this.signIns.ssoOnly());
    // The gate refuses (429) rather than queue when the process already hashes at its limit.
    const ok = await passwordGate.run(async () => {
      if (candidate && ownPassword) return verifyPassword(candidate.passwordHash, password);
      await burnPasswordCheck(password);
      return false;
    });
    if (ok) return { method: 'password', failure: null };
    const refused: SignInFailure = !candidate ? 'unknown_login' : ownPassword ? 'wrong_password' : 'sso_only';
    if (!this.directoryPasswords) return { method: 'password', failure: refused };
    const verdict = await this.directoryPasswords(
      { email: login, directoryId: candidate?.directoryId ?? null },
      password,
    );
    if (verdict === 'unavailable') return { method: 'ldap', failure: 'directory_unavailable' };
    if (verdict === 'ok' && candidate) return { method: 'ldap', failure: null };
    return { method: 'ldap', failure: refused === 'sso_only' ? 'directory_refused' : refused };
  }

  async signOut(token: string): Promise<void> {
    await this.sessions.deleteByHash(sha256(token));
  }
}
