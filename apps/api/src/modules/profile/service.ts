import {
  DIGEST_NOT_FOR_ROLE,
  newPasswordProblem,
  PROFILE_MESSAGES as P,
  type Profile,
  type ProfilePreferences,
  type ProfilePreferencesChange,
} from '@lms/contract';
import { iso, MINUTE, type Clock } from '../../platform/clock.js';
import { notFound, tooManyRequests, unprocessable } from '../../platform/errors.js';
import { passwordGate, PASSWORD_GATE_BUSY } from '../../platform/passwordGate.js';
import { hashPassword, verifyPassword } from '../../platform/passwords.js';
import type { RateLimiter } from '../../platform/rateLimit.js';
import type { Credentials } from '../users/credentials.js';
import type { UsersRepository } from '../users/repository.js';

const WRONG_OLD_PER_MINUTE = 5;
/** Roles that get the weekly team digest (modules/reminders): their analytics scope is not empty. */
const DIGEST_ROLES = new Set(['manager', 'admin']);

/** The signed-in user's own record and password (docs/rules.md §Profile). */
export class ProfileService {
  constructor(
    private readonly users: UsersRepository,
    private readonly credentials: Credentials,
    private readonly limiter: RateLimiter,
    private readonly clock: Clock,
  ) {}

  async profile(userId: number): Promise<Profile> {
    const [u, reminderMails, digestMails] = await Promise.all([
      this.users.find(userId),
      this.users.reminderMails(userId),
      this.users.digestMails(userId),
    ]);
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
      digest_mails: DIGEST_ROLES.has(u.role_code) ? (digestMails ?? true) : null,
    };
  }

  /** The user's own mail preferences (issue 16): deadline reminders, and for managers and admins the digest. */
  async setPreferences(userId: number, input: ProfilePreferencesChange): Promise<ProfilePreferences> {
    const user = await this.users.find(userId);
    if (!user) throw notFound();
    const digestRole = DIGEST_ROLES.has(user.role_code);
    if (input.digest_mails !== undefined && !digestRole) throw unprocessable(DIGEST_NOT_FOR_ROLE);
    const now = iso(this.clock.now());
    if (!(await this.users.setReminderMails(userId, input.reminder_mails, now))) throw notFound();
    if (input.digest_mails !== undefined) await this.users.setDigestMails(userId, input.digest_mails, now);
    const digest = digestRole ? ((await this.users.digestMails(userId)) ?? true) : null;
    return { reminder_mails: input.reminder_mails, digest_mails: digest };
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
    checkNewPassword(input, user.email);
    const stored = await this.users.passwordHash(user.id);
    if (!stored) throw notFound();
    const right = await passwordGate.run(() => verifyPassword(stored, input.old_password), PASSWORD_GATE_BUSY);
    if (!right) {
      await this.limiter.hit(key, this.clock.now(), MINUTE);
      throw unprocessable(P.wrongOld, { old_password: [P.wrongOld] });
    }
    if (input.new_password === input.old_password) throw unprocessable(P.sameAsOld, { new_password: [P.sameAsOld] });
    const hash = await passwordGate.run(() => hashPassword(input.new_password), PASSWORD_GATE_BUSY);
    await this.credentials.replacePassword(user.id, hash, { keepSessionId: sessionId, mailed: false });
    await this.limiter.reset(key);
  }

  /**
   * The user's own password instead of the one an administrator mailed (`must_change_password`), by
   * the same rules as a change, and different from the mailed one. The old one is not asked for:
   * the user has just signed in with it. Refused once the password is the user's own (the profile
   * changes it then, with the old one). Every other session ends, as with a change.
   */
  async setOwnPassword(
    user: { id: number; email: string; must_change_password: boolean },
    sessionId: number,
    input: { new_password: string; new_password_confirmation: string },
  ): Promise<void> {
    if (!user.must_change_password) throw unprocessable(P.alreadySet);
    checkNewPassword(input, user.email);
    const stored = await this.users.passwordHash(user.id);
    if (!stored) throw notFound();
    if (await passwordGate.run(() => verifyPassword(stored, input.new_password), PASSWORD_GATE_BUSY)) {
      throw unprocessable(P.sameAsOld, { new_password: [P.sameAsOld] });
    }
    const hash = await passwordGate.run(() => hashPassword(input.new_password), PASSWORD_GATE_BUSY);
    await this.credentials.replacePassword(user.id, hash, { keepSessionId: sessionId, mailed: false });
  }
}

/** The shared rules of a new password (contract `newPasswordProblem`) as a 422 on the field at fault. */
function checkNewPassword(input: { new_password: string; new_password_confirmation: string }, login: string): void {
  const problem = newPasswordProblem(input, login);
  if (problem) throw unprocessable(problem.message, { [problem.field]: [problem.message] });
}
