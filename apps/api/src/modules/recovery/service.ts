import { randomInt } from 'node:crypto';
import { DAY, MINUTE, HOUR, addMs, iso, type Clock } from '../../platform/clock.js';
import { tooManyRequests, unprocessable } from '../../platform/errors.js';
import type { Mailer } from '../../platform/mail/mailer.js';
import { newPasswordMail, recoveryCodeMail, type MailContext } from '../../platform/mail/templates.js';
import { generatePassword, hashPassword } from '../../platform/passwords.js';
import type { RateLimiter } from '../../platform/rateLimit.js';
import { hmac, safeEqual } from '../../platform/tokens.js';
import type { RecoveryRepository } from './repository.js';

export const PIN_TTL_MS = 15 * MINUTE;
export const MAX_PIN_FAILURES = 5;
const REQUESTS_PER_ADDRESS_PER_MINUTE = 1;
const REQUESTS_PER_IP_PER_HOUR = 20;
const CHECKS_PER_IP_PER_HOUR = 60;
const FAILURES_PER_ADDRESS_PER_DAY = 30;

export const RECOVERY_MESSAGES = {
  requested: 'Если адрес зарегистрирован, на него отправлен код',
  wrongCode: 'Неверный или устаревший код. Проверьте код или запросите новый.',
  deadCode: 'Превышено число попыток ввода кода. Запросите новый код.',
  codeOk: 'Код подтвержден',
  reset: 'Новый пароль отправлен на email',
  tooOften: 'Код уже отправлен. Повторный запрос возможен через минуту.',
  tooMany: 'Слишком много запросов. Попробуйте позже.',
} as const;

/** Password recovery by a mailed six-digit code (DESIGN.md §6 "Password recovery"). */
export class RecoveryService {
  constructor(
    private readonly repo: RecoveryRepository,
    private readonly limiter: RateLimiter,
    private readonly mailer: Mailer,
    private readonly clock: Clock,
    private readonly secret: string,
    private readonly mail: MailContext,
  ) {}

  #hash(userId: number, pin: string): string {
    return hmac(this.secret, `pin|${userId}|${pin}`);
  }

  /** Answers the same whether the address has an account or not. */
  async request(email: string, ip: string): Promise<void> {
    const address = email.trim().toLowerCase();
    const now = this.clock.now();
    if ((await this.limiter.hit(`recovery:ip:${ip}`, now, HOUR)) > REQUESTS_PER_IP_PER_HOUR) {
      throw tooManyRequests(RECOVERY_MESSAGES.tooMany);
    }
    if ((await this.limiter.hit(`recovery:address:${address}`, now, MINUTE)) > REQUESTS_PER_ADDRESS_PER_MINUTE) {
      throw tooManyRequests(RECOVERY_MESSAGES.tooOften);
    }
    // A new code (or the promise of one) starts the count of wrong tries afresh, for any address.
    await this.limiter.reset(`recovery:fail:${address}`);
    const user = await this.repo.findUser(address);
    if (!user) return;
    const pin = String(randomInt(0, 1_000_000)).padStart(6, '0');
    await this.repo.replacePin(user.id, this.#hash(user.id, pin), iso(addMs(now, PIN_TTL_MS)), iso(now));
    this.mailer.send(recoveryCodeMail(this.mail, user.email, pin));
  }

  /**
   * Checks a code; a wrong one counts towards the limit shared with resetByPin. Failures are also
   * counted per address whether it has an account or not, so that the answers never tell them apart.
   */
  async check(email: string, pin: string, ip: string): Promise<{ userId: number; pinId: number; email: string }> {
    const now = this.clock.now();
    const address = email.trim().toLowerCase();
    if ((await this.limiter.hit(`recovery:check-ip:${ip}`, now, HOUR)) > CHECKS_PER_IP_PER_HOUR) {
      throw tooManyRequests(RECOVERY_MESSAGES.tooMany);
    }
    if ((await this.limiter.count(`recovery:fail-day:${address}`, now, DAY)) >= FAILURES_PER_ADDRESS_PER_DAY) {
      throw tooManyRequests(RECOVERY_MESSAGES.tooMany);
    }
    const user = await this.repo.findUser(address);
    const taken = user ? await this.repo.takeTry(user.id, iso(now), MAX_PIN_FAILURES) : undefined;
    if (user && taken && safeEqual(taken.pin_hash, this.#hash(user.id, pin))) {
      await this.repo.returnTry(taken.id);
      return { userId: user.id, pinId: taken.id, email: user.email };
    }
    await this.limiter.hit(`recovery:fail-day:${address}`, now, DAY);
    const failures = await this.limiter.hit(`recovery:fail:${address}`, now, PIN_TTL_MS);
    throw unprocessable(failures >= MAX_PIN_FAILURES ? RECOVERY_MESSAGES.deadCode : RECOVERY_MESSAGES.wrongCode);
  }

  /** Uses the code: a new random password is set, mailed, and every session of the user ends. */
  async resetByPin(email: string, pin: string, ip: string): Promise<void> {
    const { userId, pinId, email: address } = await this.check(email, pin, ip);
    const password = generatePassword(14);
    const ok = await this.repo.consumePinAndSetPassword(
      pinId,
      userId,
      await hashPassword(password),
      iso(this.clock.now()),
    );
    if (!ok) throw unprocessable(RECOVERY_MESSAGES.wrongCode);
    this.mailer.send(newPasswordMail(this.mail, address, address, password));
  }
}
