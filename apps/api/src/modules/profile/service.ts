import { PASSWORD_MIN, PROFILE_MESSAGES as P, type Profile, type ProfilePreferences } from '@lms/contract';
import { iso, MINUTE, type Clock } from '../../platform/clock.js';
import { notFound, tooManyRequests, unprocessable } from '../../platform/errors.js';
import { passwordGate, PASSWORD_GATE_BUSY } from '../../platform/passwordGate.js';
import { hashPassword, verifyPassword } from '../../platform/passwords.js';
import type { RateLimiter } from '../../platform/rateLimit.js';
import type { Credentials } from '../users/credentials.js';
import type { UsersRepository } from '../users/repository.js';

const WRONG_OLD_PER_MINUTE = 5;

/** The signed-in user's own record and password (DESIGN.md §6 "Profile"). */
export class ProfileService {
  constructor(
    private readonly users: UsersRepository,
    private readonly credentials: Credentials,
    private readonly limiter: RateLimiter,
    private readonly clock: Clock,
  ) {}

  async profile(userId: number): Promise<Profile> {
    const [u, reminderMails] = await Promise.all([this.users.find(userId), this.users.reminderMails(userId)]);
    if (!u || reminderMails === undefined) throw notFound();
    return {
      id: u.id,
      first_name: u.first_name,
      last_name: u.last_name,
      role: { name: u.role_name },
      department: u.department_name !== null ? { name: u.department_name } : null,
      position: u.position,
      email: u.email,
      reminder_mails: reminderMails,
    };
  }

  /** The user's own mail preferences (issue 16): deadline reminders on or off. */
  async setPreferences(userId: number, input: ProfilePreferences): Promise<ProfilePreferences> {
    if (!(await this.users.setReminderMails(userId, input.reminder_mails, iso(this.clock.now())))) throw notFound();
    return { reminder_mails: input.reminder_mails };
  }

  /**
   * Needs the right old password (5 wrong tries a minute, then 429); the new one has at least 8
   * characters and differs from the old one and from the login. Every other session ends.
   */
  async changePassword(
    user: { id: number; email: string },
    sessionId: number,
    input: { old_password: string; new_password: string; new_password_confirmation: string },
  ): Promise<void> {
    const key = `profile:password:${user.id}`;
    if ((await this.limiter.count(key, this.clock.now(), MINUTE)) >= WRONG_OLD_PER_MINUTE) {
      throw tooManyRequests(P.tooMany);
    }
    if (input.new_password !== input.new_password_confirmation) {
      throw unprocessable(P.mismatch, { new_password_confirmation: [P.mismatch] });
    }
    if (input.new_password.length < PASSWORD_MIN) throw unprocessable(P.tooShort, { new_password: [P.tooShort] });
    const login = user.email.toLowerCase();
    if (input.new_password.toLowerCase() === login || input.new_password.toLowerCase() === login.split('@')[0]) {
      throw unprocessable(P.sameAsLogin, { new_password: [P.sameAsLogin] });
    }
    const stored = await this.users.passwordHash(user.id);
    if (!stored) throw notFound();
    const right = await passwordGate.run(() => verifyPassword(stored, input.old_password), PASSWORD_GATE_BUSY);
    if (!right) {
      await this.limiter.hit(key, this.clock.now(), MINUTE);
      throw unprocessable(P.wrongOld, { old_password: [P.wrongOld] });
    }
    if (input.new_password === input.old_password) throw unprocessable(P.sameAsOld, { new_password: [P.sameAsOld] });
    const hash = await passwordGate.run(() => hashPassword(input.new_password), PASSWORD_GATE_BUSY);
    await this.credentials.replacePassword(user.id, hash, { keepSessionId: sessionId });
    await this.limiter.reset(key);
  }
}
