import type { LightMyRequestResponse } from 'fastify';
import { Client, createTestApp, type TestContext } from './harness.js';
import { startOidcProvider, type ProviderBrowser, type ProviderOptions, type TestProvider } from './oidcProvider.js';

/** The app's address in the OpenID Connect tests (PUBLIC_URL): the provider knows its callback there. */
export const SITE = 'http://lms.test';
export const CALLBACK = `${SITE}/api/auth/oidc/callback`;

export interface OidcTest {
  ctx: TestContext;
  provider: TestProvider;
  close(): Promise<void>;
}

/**
 * A test app configured for a fresh in-process provider. The app's clock is set to the real time,
 * which the provider stamps its tokens with; a test moves it from there.
 */
export async function oidcTestApp(
  opts: { provider?: Partial<ProviderOptions>; env?: Record<string, string> } = {},
): Promise<OidcTest> {
  const provider = await startOidcProvider({
    redirectUri: CALLBACK,
    postLogoutRedirectUri: `${SITE}/login`,
    accounts: [],
    ...opts.provider,
  });
  const ctx = await createTestApp({ PUBLIC_URL: SITE, ...provider.env, ...opts.env });
  ctx.clock.set(new Date());
  let closed: Promise<void> | undefined;
  return {
    ctx,
    provider,
    close: () =>
      (closed ??= (async () => {
        await ctx.close();
        await provider.stop();
      })()),
  };
}

/** The address a redirect answer sends the browser to. */
export function locationOf(res: LightMyRequestResponse): string {
  if (res.statusCode !== 302) throw new Error(`expected a redirect, got ${res.statusCode}: ${res.body}`);
  return String(res.headers.location);
}

/** The start route's redirect to the provider (its authorization address). */
export async function startSignIn(client: Client, query = ''): Promise<URL> {
  return new URL(locationOf(await client.get(`/api/auth/oidc/start${query}`)));
}

/** The app's callback as the browser would visit it after the provider. */
export function visitCallback(client: Client, url: URL): Promise<LightMyRequestResponse> {
  if (url.origin !== SITE) throw new Error(`the provider sent the browser to ${url.href}`);
  return client.get(`${url.pathname}${url.search}`);
}

/**
 * A whole sign-in as a browser makes it: start, the provider's pages as `login`, the callback.
 * `client` is the browser at the app, `opts.browser` the same browser's cookies at the provider.
 * `tamper` changes the authorization address on its way to the provider, `tamperBack` the callback
 * address on its way back.
 */
export async function signInThrough(
  test: OidcTest,
  client: Client,
  login: string,
  opts: {
    query?: string;
    tamper?: (url: URL) => void;
    tamperBack?: (url: URL) => void;
    /** The browser at the provider (a new one by default). */
    browser?: ProviderBrowser;
  } = {},
): Promise<LightMyRequestResponse> {
  const authorization = await startSignIn(client, opts.query);
  opts.tamper?.(authorization);
  const back = await (opts.browser ?? test.provider.browser()).signIn(authorization.href, login);
  opts.tamperBack?.(back);
  return visitCallback(client, back);
}

/** The refusal code of a callback or start answer ('/login?sso_error=code'), or null for another address. */
export function refusalOf(res: LightMyRequestResponse): string | null {
  const url = new URL(locationOf(res), SITE);
  return url.pathname === '/login' ? url.searchParams.get('sso_error') : null;
}

export async function sessionCount(ctx: TestContext): Promise<number> {
  const row = await ctx.db.kysely
    .selectFrom('sessions')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export { Client };
