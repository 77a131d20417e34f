import { createSign, generateKeyPairSync, randomBytes, type KeyObject } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider, { type Configuration, type KoaContextWithOIDC } from 'oidc-provider';

/**
 * A real OpenID Connect provider for a test (`oidc-provider`, a certified implementation), run in
 * this process on a free port of 127.0.0.1 with its own generated keys, one confidential test client
 * (PKCE required) whose redirect URI is the app's callback, and the accounts a test defines. Its
 * login and consent pages are the library's own (any password is taken: the account is who logs in).
 *
 * For the refusals a test can make it misbehave the ways a wrong or hostile provider would:
 * `forge` signs each ID token again after the provider made it, with changed claims (another
 * issuer, another audience) or with a key the provider never published (a bad signature).
 */

export interface TestAccount {
  sub: string;
  email?: string;
  email_verified?: boolean;
  given_name?: string;
  family_name?: string;
  department?: string;
  position?: string;
}

export interface ProviderOptions {
  /** The app's callback address (its PUBLIC_URL + /api/auth/oidc/callback). */
  redirectUri: string;
  /** Where the provider's logout sends the browser back (the app's /login). */
  postLogoutRedirectUri: string;
  accounts: TestAccount[];
  clientId?: string;
  /** Seconds an ID token is valid (the provider's `ttl.IdToken`); an hour by default. */
  idTokenTtl?: number;
  /** false: no end-session endpoint (RP-initiated logout off). */
  endSession?: boolean;
  forge?: { claims?: (claims: Record<string, unknown>) => Record<string, unknown>; foreignKey?: boolean };
}

export interface TestProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** The app's settings for this provider. */
  env: Record<string, string>;
  /** A browser of its own at the provider (its cookies: the provider's session of whoever signed in). */
  browser(): ProviderBrowser;
  /** `ProviderBrowser.signIn` in a new browser. */
  signIn(authorizationUrl: string, login: string): Promise<URL>;
  /** `ProviderBrowser.cancel` in a new browser. */
  cancel(authorizationUrl: string): Promise<URL>;
  stop(): Promise<void>;
}

/** An RS256 JWT signed with `key`, for the forged ID tokens. */
function signJwt(header: Record<string, unknown>, payload: Record<string, unknown>, key: KeyObject): string {
  const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const input = `${part(header)}.${part(payload)}`;
  return `${input}.${createSign('RSA-SHA256').update(input).sign(key).toString('base64url')}`;
}

const decodePart = (part: string | undefined): Record<string, unknown> =>
  JSON.parse(Buffer.from(part ?? '', 'base64url').toString('utf8')) as Record<string, unknown>;

/** The library's pages load a web font from the internet; a test sends no traffic off this machine. */
const OFFLINE_STYLE = /@import url\(https?:[^)]*\);?/g;

/** A plain page of the provider's own (its defaults ask to be replaced and load that web font). */
const page = (title: string, body: string) =>
  `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body><h1>${title}</h1>${body}</body></html>`;
const escapeHtml = (text: string) => text.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);

/** A tiny cookie jar for the provider's own cookies (names are unique enough for one sign-in). */
class Jar {
  readonly #cookies = new Map<string, string>();
  absorb(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const eq = pair.indexOf('=');
      const [name, value] = [pair.slice(0, eq).trim(), pair.slice(eq + 1).trim()];
      if (value === '' || /expires=Thu, 01 Jan 1970/i.test(line)) this.#cookies.delete(name);
      else this.#cookies.set(name, value);
    }
  }
  header(): string {
    return [...this.#cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }
}

/** A browser at the provider's pages, driven by fetch with its own cookies. */
export class ProviderBrowser {
  readonly #jar = new Jar();
  /** The prompts the provider showed during the last call ('login', 'consent', 'logout'). */
  prompts: string[] = [];

  constructor(private readonly issuer: string) {}

  private async get(url: string): Promise<Response> {
    const response = await fetch(url, { redirect: 'manual', headers: { cookie: this.#jar.header() } });
    this.#jar.absorb(response);
    return response;
  }

  private async post(url: string, fields: Record<string, string>): Promise<Response> {
    const response = await fetch(url, {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie: this.#jar.header(), 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(fields),
    });
    this.#jar.absorb(response);
    return response;
  }

  /** Follows the provider's redirects and fills its pages in until it sends the browser elsewhere. */
  private async travel(first: Response, fill: (form: Record<string, string>) => Record<string, string>): Promise<URL> {
    this.prompts = [];
    let response = first;
    for (let step = 0; step < 20; step++) {
      const location = response.headers.get('location');
      if (location) {
        const next = new URL(location, this.issuer);
        if (next.origin !== this.issuer) return next;
        response = await this.get(next.href);
        continue;
      }
      const html = await response.text();
      if (response.status !== 200) throw new Error(`the provider answered ${response.status}:\n${html.slice(0, 2000)}`);
      const form = formOf(html);
      this.prompts.push(form.fields.prompt ?? 'logout');
      response = await this.post(new URL(form.action, this.issuer).href, { ...form.fields, ...fill(form.fields) });
    }
    throw new Error('the provider kept the browser for too long');
  }

  /**
   * Goes through the provider's pages from `authorizationUrl`: its login form filled in as `login`
   * (unless the provider remembers someone), its consent given when asked. Returns the address it
   * sends the browser back to (the app's callback with code, state and iss, or with an error).
   */
  async signIn(authorizationUrl: string, login: string): Promise<URL> {
    return this.travel(await this.get(authorizationUrl), (form): Record<string, string> =>
      form.prompt === 'login' ? { login, password: 'any-password' } : {},
    );
  }

  /** Goes to the provider's login page and presses its '[ Cancel ]'. */
  async cancel(authorizationUrl: string): Promise<URL> {
    let response = await this.get(authorizationUrl);
    for (let location = response.headers.get('location'); location; location = response.headers.get('location')) {
      response = await this.get(new URL(location, this.issuer).href);
    }
    const abort = /<a href="([^"]+\/abort)">/.exec(await response.text())?.[1];
    if (!abort) throw new Error('the provider showed no cancel link');
    return this.travel(await this.get(new URL(abort, this.issuer).href), () => ({}));
  }

  /** Follows the provider's end-session address and confirms. */
  async logout(endSessionUrl: string): Promise<URL> {
    return this.travel(await this.get(endSessionUrl), () => ({ logout: 'yes' }));
  }
}

/** The form of one of the provider's pages: where it posts and its hidden fields. */
function formOf(html: string): { action: string; fields: Record<string, string> } {
  const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
  if (!action) throw new Error(`the provider's page has no form:\n${html.slice(0, 2000)}`);
  const fields: Record<string, string> = {};
  for (const match of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"\s*\/?>/g)) {
    fields[match[1] ?? ''] = match[2] ?? '';
  }
  return { action: action.replace(/&amp;/g, '&'), fields };
}

/**
 * The provider warns that it keeps its data in memory and shows its own development pages: exactly
 * what a test provider does, so those two warnings are not printed for every test.
 */
function quietly<T>(make: () => T): T {
  const warn = console.warn;
  console.warn = (...args: unknown[]) => {
    if (!String(args[0]).includes('a quick start development-only')) warn(...args);
  };
  try {
    return make();
  } finally {
    console.warn = warn;
  }
}

export async function startOidcProvider(options: ProviderOptions): Promise<TestProvider> {
  let handle: (req: IncomingMessage, res: ServerResponse) => void = (_req, res) => res.end();
  const server = createServer((req, res) => handle(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const kid = randomBytes(8).toString('hex');
  const foreign = options.forge?.foreignKey ? generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey : null;
  const clientId = options.clientId ?? 'lms';
  const clientSecret = randomBytes(24).toString('base64url');
  const accounts = new Map(options.accounts.map((a) => [a.sub, a]));

  const configuration: Configuration = {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: [options.redirectUri],
        post_logout_redirect_uris: [options.postLogoutRedirectUri],
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    ],
    jwks: { keys: [{ ...privateKey.export({ format: 'jwk' }), kid, alg: 'RS256', use: 'sig' }] },
    cookies: { keys: [randomBytes(16).toString('hex')] },
    pkce: { required: () => true },
    claims: {
      openid: ['sub'],
      email: ['email', 'email_verified'],
      profile: ['given_name', 'family_name', 'department', 'position'],
    },
    findAccount: (_ctx, sub) => {
      const account = accounts.get(sub);
      return account && { accountId: sub, claims: () => ({ ...account }) };
    },
    features: {
      devInteractions: { enabled: true },
      rpInitiatedLogout: {
        enabled: options.endSession ?? true,
        logoutSource: (ctx, form) => {
          ctx.body = page(
            'Sign out of the test provider?',
            `${form}<button type="submit" form="op.logoutForm" name="logout" value="yes">Yes, sign me out</button>`,
          );
        },
        postLogoutSuccessSource: (ctx) => {
          ctx.body = page('Signed out', '');
        },
      },
    },
    renderError: (ctx, out) => {
      ctx.type = 'html';
      ctx.body = page('Provider error', `<pre>${escapeHtml(JSON.stringify(out))}</pre>`);
    },
    ttl: {
      IdToken: options.idTokenTtl ?? 3600,
      AccessToken: 3600,
      AuthorizationCode: 60,
      Interaction: 600,
      Session: 3600,
      Grant: 3600,
    },
  };
  const provider = quietly(() => new Provider(issuer, configuration));
  provider.use(async (ctx: KoaContextWithOIDC, next: () => Promise<unknown>) => {
    await next();
    if (typeof ctx.body === 'string' && ctx.type.startsWith('text/html')) {
      ctx.body = ctx.body.replace(OFFLINE_STYLE, '');
    }
    const body: unknown = ctx.body;
    if (options.forge && ctx.path === '/token' && typeof body === 'object' && body !== null && 'id_token' in body) {
      const [header, payload] = String(body.id_token).split('.');
      const claims = options.forge.claims ? options.forge.claims(decodePart(payload)) : decodePart(payload);
      ctx.body = { ...body, id_token: signJwt(decodePart(header), claims, foreign ?? privateKey) };
    }
  });
  handle = provider.callback();

  return {
    issuer,
    clientId,
    clientSecret,
    env: { OIDC_ISSUER: issuer, OIDC_CLIENT_ID: clientId, OIDC_CLIENT_SECRET: clientSecret },
    browser: () => new ProviderBrowser(issuer),
    signIn: (authorizationUrl, login) => new ProviderBrowser(issuer).signIn(authorizationUrl, login),
    cancel: (authorizationUrl) => new ProviderBrowser(issuer).cancel(authorizationUrl),
    stop: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
