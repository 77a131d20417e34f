import * as oidc from 'openid-client';
import type { OidcConfig } from '../../../config.js';
import { HOUR, SECOND, type Clock } from '../../../platform/clock.js';

/** How long the provider's metadata (its discovery document) is kept before it is read again. */
const METADATA_TTL_MS = HOUR;
/** How long a failed read is answered from memory: visits of the start page do not each ask a provider that is down. */
const FAILURE_TTL_MS = 30 * SECOND;
/** Seconds a call to the provider may take: a hung provider must not hold a sign-in for long. */
const TIMEOUT_S = 10;

/** What the provider's discovery, token or userinfo endpoint could not answer (network, time-out, not JSON). */
export class ProviderUnavailable extends Error {
  constructor(cause: unknown) {
    super('the OpenID Connect provider did not answer', { cause });
    this.name = 'ProviderUnavailable';
  }
}

/** The provider refused or abandoned the sign-in itself (`?error=` in the callback, e.g. access_denied). */
export class ProviderDenied extends Error {
  constructor(cause: unknown) {
    super('the OpenID Connect provider refused the sign-in', { cause });
    this.name = 'ProviderDenied';
  }
}

/** A sign-in started: where the browser goes, and the secrets the callback checks against. */
export interface Authorization {
  url: string;
  state: string;
  nonce: string;
  verifier: string;
}

/** The verified answer: the ID token's claims (with the userinfo endpoint's, where it has one). */
export interface ProviderAnswer {
  claims: Record<string, unknown>;
  idToken: string;
}

const isNetworkError = (error: unknown) =>
  error instanceof TypeError || (error instanceof DOMException && /Abort|Timeout/.test(error.name));

/**
 * The company's OpenID Connect provider, through `openid-client` (a certified relying party). It
 * does every check of the answer: state, nonce, PKCE, the ID token's issuer, audience, signature and
 * times. The library's clock is the app's (`clockSkew`), so tests move time instead of waiting.
 */
export class OidcProvider {
  #metadata: { until: number; server: Promise<oidc.ServerMetadata> } | undefined;
  #jwks: oidc.ExportedJWKSCache | undefined;
  readonly #insecure: boolean;

  constructor(
    private readonly config: OidcConfig,
    private readonly clock: Clock,
  ) {
    // config.ts allows http:// only for a provider on this machine.
    this.#insecure = new URL(config.issuer).protocol === 'http:';
  }

  /** The discovery document, read at the first sign-in and again an hour later (a failure: 30 seconds later). */
  private server(): Promise<oidc.ServerMetadata> {
    const now = this.clock.now().getTime();
    if (!this.#metadata || now >= this.#metadata.until) {
      const server = oidc
        .discovery(new URL(this.config.issuer), this.config.clientId, undefined, undefined, {
          execute: this.#insecure ? [oidc.allowInsecureRequests] : [],
          timeout: TIMEOUT_S,
        })
        .then((found) => found.serverMetadata());
      const kept = { until: now + METADATA_TTL_MS, server };
      this.#metadata = kept;
      server.catch(() => {
        kept.until = Math.min(kept.until, this.clock.now().getTime() + FAILURE_TTL_MS);
      });
    }
    return this.#metadata.server.catch((error: unknown) => {
      throw new ProviderUnavailable(error);
    });
  }

  /** A configuration for one call, its clock the app's at this moment, sharing the provider's keys. */
  private async configuration(): Promise<oidc.Configuration> {
    const server = await this.server();
    const secret = this.config.clientSecret;
    // Basic is the default method of the standard; a provider that lists only 'post' gets that.
    const methods = server.token_endpoint_auth_methods_supported ?? ['client_secret_basic'];
    const auth = !secret
      ? oidc.None()
      : methods.includes('client_secret_basic')
        ? oidc.ClientSecretBasic(secret)
        : oidc.ClientSecretPost(secret);
    const skew = Math.round((this.clock.now().getTime() - Date.now()) / 1000);
    const configuration = new oidc.Configuration(server, this.config.clientId, { [oidc.clockSkew]: skew }, auth);
    configuration.timeout = TIMEOUT_S;
    if (this.#insecure) oidc.allowInsecureRequests(configuration);
    // The standard lets a client trust an ID token from the token endpoint on TLS alone, and the
    // library does so by default; we check its signature against the provider's published keys too.
    oidc.enableNonRepudiationChecks(configuration);
    if (this.#jwks) oidc.setJwksCache(configuration, this.#jwks);
    return configuration;
  }

  /** The provider's authorization address for a new sign-in, with PKCE (S256), state and nonce. */
  async authorize(redirectUri: string): Promise<Authorization> {
    const configuration = await this.configuration();
    const verifier = oidc.randomPKCECodeVerifier();
    const state = oidc.randomState();
    const nonce = oidc.randomNonce();
    const url = oidc.buildAuthorizationUrl(configuration, {
      redirect_uri: redirectUri,
      scope: this.config.scopes,
      response_type: 'code',
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state,
      nonce,
    });
    return { url: url.href, state, nonce, verifier };
  }

  /**
   * Checks the provider's answer at the callback address (`callbackUrl`: our redirect URI with the
   * query the provider sent) and exchanges its code. Throws ProviderDenied, ProviderUnavailable, or
   * the library's error for anything that does not check out.
   */
  async finish(
    callbackUrl: URL,
    expected: { state: string; nonce: string; verifier: string },
  ): Promise<ProviderAnswer> {
    const configuration = await this.configuration();
    let tokens: Awaited<ReturnType<typeof oidc.authorizationCodeGrant>>;
    try {
      tokens = await oidc.authorizationCodeGrant(configuration, callbackUrl, {
        expectedState: expected.state,
        expectedNonce: expected.nonce,
        pkceCodeVerifier: expected.verifier,
        idTokenExpected: true,
      });
    } catch (error) {
      if (error instanceof oidc.AuthorizationResponseError) throw new ProviderDenied(error);
      if (isNetworkError(error)) throw new ProviderUnavailable(error);
      throw error;
    }
    this.#jwks = oidc.getJwksCache(configuration) ?? this.#jwks;
    const claims = tokens.claims();
    if (!claims || !tokens.id_token) throw new Error('the token endpoint answered without an ID token');
    // Many providers put the profile (names, department) in the userinfo answer only; the ID
    // token's own claims win where both have one.
    if (!configuration.serverMetadata().userinfo_endpoint) return { claims: { ...claims }, idToken: tokens.id_token };
    try {
      const info = await oidc.fetchUserInfo(configuration, tokens.access_token, claims.sub);
      return { claims: { ...info, ...claims }, idToken: tokens.id_token };
    } catch (error) {
      if (isNetworkError(error)) throw new ProviderUnavailable(error);
      throw error;
    }
  }

  /** The provider's logout address for this ID token, coming back to `backTo`; undefined when it has none. */
  async endSessionUrl(idToken: string, backTo: string): Promise<string | undefined> {
    const configuration = await this.configuration();
    if (!configuration.serverMetadata().end_session_endpoint) return undefined;
    return oidc.buildEndSessionUrl(configuration, { id_token_hint: idToken, post_logout_redirect_uri: backTo }).href;
  }
}
