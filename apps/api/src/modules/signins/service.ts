import {
  SIGN_IN_SETTINGS_MESSAGES,
  SIGN_INS_PER_PAGE_DEFAULT,
  type SignInEntry,
  type SignInFailure,
  type SignInMethod,
  type SignInSettings,
  type SignInsQuery,
} from '@lms/contract';
import { DAY, addMs, iso, type Clock } from '../../platform/clock.js';
import { unprocessable } from '../../platform/errors.js';
import type { SignInRepository } from './repository.js';

/** A sign-in as the journal keeps it. */
export interface SignInRecord {
  userId: number | null;
  login: string;
  method: SignInMethod;
  /** Null: it succeeded. */
  failure: SignInFailure | null;
  ip: string;
  userAgent: string | null;
}

/** How long the journal keeps a sign-in. */
const KEPT_MS = 365 * DAY;
/** The journal prunes from its own inserts, at most this often. */
const PRUNE_EVERY_MS = DAY;
const SSO_ONLY = 'sso_only';

/** Where refused sign-ins are counted (the metrics, platform/metrics.ts). */
export interface SignInCounts {
  signInFailed(method: SignInMethod, reason: SignInFailure): void;
}

/**
 * The journal of sign-ins and the sign-in settings (docs/rules.md §Sign-in): every way in records
 * every attempt it judged, successful or not; an admin reads it a page at a time.
 */
export class SignIns {
  #lastPrune = -Infinity;

  constructor(
    private readonly repo: SignInRepository,
    private readonly clock: Clock,
    /** What the server is set up for: the directory's passwords (LDAP_AUTH), the identity provider (OIDC_*). */
    private readonly ways: { ldap: boolean; oidc: boolean },
    private readonly counts?: SignInCounts,
  ) {}

  async record(entry: SignInRecord): Promise<void> {
    if (entry.failure !== null) this.counts?.signInFailed(entry.method, entry.failure);
    const now = this.clock.now();
    if (now.getTime() - this.#lastPrune >= PRUNE_EVERY_MS) {
      // Set before the delete runs, so that parallel sign-ins do not all prune.
      this.#lastPrune = now.getTime();
      await this.repo.prune(iso(addMs(now, -KEPT_MS)));
    }
    await this.repo.insert({
      at: iso(now),
      user_id: entry.userId,
      login: entry.login.slice(0, 254),
      method: entry.method,
      success: entry.failure === null,
      failure: entry.failure,
      ip: entry.ip.slice(0, 64),
      user_agent: entry.userAgent?.slice(0, 500) ?? null,
    });
  }

  async page(query: SignInsQuery) {
    const page = query.page ?? 1;
    const perPage = query.per_page ?? SIGN_INS_PER_PAGE_DEFAULT;
    const { rows, total } = await this.repo.page(query, perPage, (page - 1) * perPage);
    const items: SignInEntry[] = rows.map((r) => ({
      id: r.id,
      at: r.at,
      user_id: r.user_id,
      name: r.last_name === null ? null : `${r.last_name} ${r.first_name ?? ''}`.trim(),
      login: r.login,
      method: r.method as SignInMethod,
      success: r.success,
      failure: r.failure as SignInFailure | null,
      ip: r.ip,
      user_agent: r.user_agent,
    }));
    return { items, total, page, per_page: perPage };
  }

  /** 'Только вход через SSO': the platform's password only for accounts created by hand. */
  async ssoOnly(): Promise<boolean> {
    return (await this.repo.setting(SSO_ONLY)) === 'true';
  }

  async settings(): Promise<SignInSettings> {
    return { sso_only: await this.ssoOnly(), ldap_auth: this.ways.ldap, oidc: this.ways.oidc };
  }

  /** Turning it on needs another way in, or the imported and synced would have none. */
  async setSsoOnly(actorId: number, on: boolean): Promise<SignInSettings> {
    if (on && !this.ways.ldap && !this.ways.oidc) throw unprocessable(SIGN_IN_SETTINGS_MESSAGES.noSso);
    await this.repo.setSetting(SSO_ONLY, String(on), actorId, iso(this.clock.now()));
    return this.settings();
  }
}
