import { randomInt } from 'node:crypto';
import { DAY, MINUTE, HOUR, addMs, iso, type Clock } from '../../platform/clock.js';
import { tooManyRequests, unprocessable } from '../../platform/errors.js';
import type { Mailer } from '../../platform/mail/mailer.js';
import { newPasswordMailTo, recoveryCodeMail, type MailContext } from '../../platform/mail/templates.js';
import { generatePassword, hashPassword } from '../../platform/passwords.js';
import { passwordGate } from '../../platform/passwordGate.js';
import type { RateLimiter } from '../../platform/rateLimit.js';
import { hmac, safeEqual } from '../../platform/tokens.js';
import type { UnitOfWork } from '../../db/unitOfWork.js';
import type { SignIns } from '../signins/service.js';
import type { Credentials } from '../users/credentials.js';
import type { RecoveryRepository } from './repository.js';

export const RECOVERY_MESSAGES = {
  requested: 'Если адрес зарегистрирован, на него отправлен код',
  wrongCode: 'Неверный или устаревший код. Проверьте код или запросите новый.',
  deadCode: 'Превышено число попыток ввода кода. Запросите новый код.',
  codeOk: 'Код подтвержден',
  reset: 'Новый пароль отправлен на email',
  tooOften: 'Код уже отправлен. Повторный запрос возможен через минуту.',
  tooMany: 'Слишком много запросов. Попробуйте позже.',
} as const;

export const PIN_TTL_MS = 15 * MINUTE;
export const MAX_PIN_FAILURES = 5;
const REQUESTS_PER_ADDRESS_PER_MINUTE = 1;
const REQUESTS_PER_IP_PER_HOUR = 20;
const CHECKS_PER_IP_PER_HOUR = 60;
const FAILURES_PER_ADDRESS_PER_DAY = 30;

/** Password recovery by a mailed six-digit code (docs/rules.md §Password recovery). */
export class RecoveryService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly repo: RecoveryRepository,
    private readonly credentials: Credentials,
    private readonly limiter: RateLimiter,
    private readonly mailer: Mailer,
    private readonly clock: Clock,
    private readonly secret: string,
    private readonly mail: MailContext,
    private readonly signIns: SignIns,
  ) {}

  /**
   * The live user of an address whose password may be recovered: under 'Только вход через SSO' only
   * accounts created by hand have one (docs/rules.md §Sign-in). Others are answered as no account.
   */
  async #recoverable(address: string) {
    const user = await this.repo.findUser(address);
    if (user && user.origin !== 'manual' && (await this.signIns.ssoOnly())) return undefined;
    return user;
  }

  /**
   * Recovery calls spend the same per-address budget as sign-in (docs/rules.md §Password recovery), on top of their
   * own hourly limits, so that switching between the two calls buys a flood nothing.
   */
  async #spendIpAttempt(ip: string, now: Date): Promise<void> {
    if (!(await this.limiter.spendIpAttempt(ip, now))) throw tooManyRequests(RECOVERY_MESSAGES.tooMany);
  }

  #hash(userId: number, pin: string): string {
    return hmac(this.secret, `pin|${userId}|${pin}`);
  }

  /** Answers the same whether the address has an account or not. */
  async request(email: string, ip: string): Promise<void> {
    const address = email.trim().toLowerCase();
    const now = this.clock.now();
    await this.#spendIpAttempt(ip, now);
    if ((await this.limiter.hit(`recovery:ip:${ip}`, now, HOUR)) > REQUESTS_PER_IP_PER_HOUR) {
      throw tooManyRequests(RECOVERY_MESSAGES.tooMany);
    }
    if ((await this.limiter.hit(`recovery:address:${address}`, now, MINUTE)) > REQUESTS_PER_ADDRESS_PER_MINUTE) {
      throw tooManyRequests(RECOVERY_MESSAGES.tooOften);
    }
    // A new code (or the promise of one) starts the count of wrong tries afresh, for any address.
    await this.limiter.reset(`recovery:fail:${address}`);
    const user = await this.#recoverable(address);
    if (!user) return;
    const pin = String(randomInt(0, 1_000_000)).padStart(6, '0');
    await this.uow.run(() =>
      this.repo.replacePin(user.id, this.#hash(user.id, pin), iso(addMs(now, PIN_TTL_MS)), iso(now)),
    );
    await this.mailer.send({
      ...recoveryCodeMail(this.mail, user.email, pin),
      audit: { kind: 'password_recovery', user_id: user.id, course_id: null },
    });
  }

  /**
   * Checks a code; a wrong one counts towards the limit shared with resetByPin. Failures are also
   * counted per address whether it has an account or not, so that the answers never tell them apart.
   */
  async check(email: string, pin: string, ip: string): Promise<{ userId: number; pinId: number; email: string }> {
    const now = this.clock.now();
    const address = email.trim().toLowerCase();
    await this.#spendIpAttempt(ip, now);
    if ((await this.limiter.hit(`recovery:check-ip:${ip}`, now, HOUR)) > CHECKS_PER_IP_PER_HOUR) {
      throw tooManyRequests(RECOVERY_MESSAGES.tooMany);
    }
    if ((await this.limiter.count(`recovery:fail-day:${address}`, now, DAY)) >= FAILURES_PER_ADDRESS_PER_DAY) {
      throw tooManyRequests(RECOVERY_MESSAGES.tooMany);
    }
    const user = await this.#recoverable(address);
    const taken = user ? await this.repo.takeTry(user.id, iso(now), MAX_PIN_FAILURES) : undefined;
    if (user && taken && safeEqual(taken.pin_hash, this.#hash(user.id, pin))) {
      await this.repo.returnTry(taken.id);
      return { userId: user.id, pinId: taken.id, email: user.email };
    }
    await this.limiter.hit(`recovery:fail-day:${address}`, now, DAY);
    const failures = await this.limiter.hit(`recovery:fail:${address}`, now, PIN_TTL_MS);
    throw unprocessable(failures >= MAX_PIN_FAILURES ? RECOVERY_MESSAGES.deadCode : RECOVERY_MESSAGES.wrongCode);
  }

  /**
   * Uses the code: a new random password is set, mailed with the sign-in link (`site`), and every
   * session of the user ends. The user asked for it and proved the mailbox is theirs: it is not an
   * administrator's password, so sign-in does not ask for another one.
   */
  async resetByPin(email: string, pin: string, ip: string, site: string): Promise<void> {
    const { userId, pinId, email: address } = await this.check(email, pin, ip);
    const password = generatePassword(14);
    // Hashing shares the process's bound with sign-in checks; when busy the code stays usable.
    const passwordHash = await passwordGate.run(() => hashPassword(password), RECOVERY_MESSAGES.tooMany);
    // The code is used once, with the new password and the end of every session, atomically.
    const ok = await this.uow.run(async () => {
      if (!(await this.repo.consumePin(pinId, iso(this.clock.now())))) return false;
      await this.credentials.replacePassword(userId, passwordHash, { mailed: true });
      return true;
    });
    if (!ok) throw unprocessable(RECOVERY_MESSAGES.wrongCode);
    await this.mailer.send(newPasswordMailTo(this.mail, { id: userId, email: address }, { password, site }));
  }
}
