import type { OidcErrorCode, SignInFailure } from '@lms/contract';
import { MINUTE, type Clock } from '../../../platform/clock.js';
import type { RateLimiter } from '../../../platform/rateLimit.js';
import type { SessionRepository, SessionUser } from '../../../platform/sessions.js';
import type { SignIns } from '../../signins/service.js';
import { openSession } from '../sessionStart.js';
import { OidcRefusal, type OidcAccounts } from './accounts.js';
import type { FlowState } from './cookies.js';
import { ProviderDenied, ProviderUnavailable, type OidcProvider } from './provider.js';

/** How the journal of sign-ins names a refusal. */
const FAILURE_OF: Partial<Record<OidcErrorCode, SignInFailure>> = {
  unavailable: 'provider_unavailable',
  email_unverified: 'email_unverified',
  unknown_user: 'not_allowed',
  foreign_domain: 'not_allowed',
  disabled: 'unknown_login',
};

/** How long a sign-in may stay at the provider (typing a password, a second factor) before it must start again. */
export const FLOW_TTL_MS = 10 * MINUTE;

export interface OidcSignInResult {
  token: string;
  remember: boolean;
  user: SessionUser;
  /** Kept for the provider's logout (id_token_hint). */
  idToken: string;
  returnTo: string;
}

/**
 * Sign-in through the company's OpenID Connect provider (issue 33; docs/rules.md §Sign-in through
 * the company's provider). Nothing is kept on the server between the two steps: what the callback
 * checks travels in a signed cookie (cookies.ts). The session it opens is the password sign-in's.
 */
export class OidcSignIn {
  constructor(
    private readonly provider: OidcProvider,
    private readonly accounts: OidcAccounts,
    private readonly sessions: SessionRepository,
    private readonly limiter: RateLimiter,
    private readonly clock: Clock,
    private readonly signIns: SignIns,
  ) {}

  /** The provider's address to send the browser to, and the flow for the cookie. */
  async start(input: {
    returnTo: string;
    remember: boolean;
    redirectUri: string;
  }): Promise<{ location: string; flow: FlowState }> {
    const { url, state, nonce, verifier } = await this.authorize(input.redirectUri);
    const expiresAt = this.clock.now().getTime() + FLOW_TTL_MS;
    return {
      location: url,
      flow: { state, nonce, verifier, returnTo: input.returnTo, remember: input.remember, expiresAt },
    };
  }

  private async authorize(redirectUri: string) {
    try {
      return await this.provider.authorize(redirectUri);
    } catch (error) {
      throw new OidcRefusal('unavailable', { cause: error });
    }
  }

  /**
   * The provider's answer at the callback (`callbackUrl`: our redirect URI with its query) checked
   * against the flow of the cookie, the person found or made, and a session opened.
   */
  async finish(input: {
    flow: FlowState | undefined;
    callbackUrl: URL;
    ip: string;
    userAgent: string | null;
  }): Promise<OidcSignInResult> {
    const { flow, ip } = input;
    // The address's budget is the one sign-in and recovery share; a successful sign-in gives it back.
    if (!(await this.limiter.spendIpAttempt(ip, this.clock.now()))) throw new OidcRefusal('too_many');
    let login = '';
    const record = (userId: number | null, failure: SignInFailure | null) =>
      this.signIns.record({ userId, login, method: 'oidc', failure, ip, userAgent: input.userAgent });
    try {
      if (!flow || flow.expiresAt <= this.clock.now().getTime()) throw new OidcRefusal('expired');
      const answer = await this.answer(input.callbackUrl, flow);
      login = this.accounts.loginOf(answer.claims);
      const user = await this.accounts.personOf(answer.claims);
      await this.limiter.giveIpAttemptBack(ip);
      const token = await openSession(this.sessions, this.clock, {
        userId: user.id,
        remember: flow.remember,
        ip,
        userAgent: input.userAgent,
        method: 'oidc',
      });
      await record(user.id, null);
      return { token, remember: flow.remember, user, idToken: answer.idToken, returnTo: flow.returnTo };
    } catch (error) {
      // Every attempt the provider answered is journaled, with the reason of a refusal.
      if (error instanceof OidcRefusal) await record(null, FAILURE_OF[error.code] ?? 'provider_refused');
      throw error;
    }
  }

  private async answer(callbackUrl: URL, flow: FlowState) {
    try {
      return await this.provider.finish(callbackUrl, flow);
    } catch (error) {
      if (error instanceof ProviderDenied) throw new OidcRefusal('denied', { cause: error });
      if (error instanceof ProviderUnavailable) throw new OidcRefusal('unavailable', { cause: error });
      // Any check of the library that fails: state, nonce, PKCE (the provider's invalid_grant),
      // the ID token's issuer, audience, signature or times.
      throw new OidcRefusal('invalid', { cause: error });
    }
  }
}
