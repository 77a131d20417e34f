import { readFile } from 'node:fs/promises';
import { text } from 'node:stream/consumers';
import { publicConfigResponse, socialLinks, ziggyResponse, type Ziggy } from '@lms/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Config } from '../../config.js';
import type { FileStore } from '../../platform/fileStore/fileStore.js';
import type { RegisteredRoute } from '../../platform/security.js';

const DEFAULT_SOCIAL_LINKS = new URL('../../../assets/social.links.json', import.meta.url);

/** Named routes for GET /ziggy, built from the routes the server registered (uri without leading slash). */
export function namedRoutes(routes: readonly RegisteredRoute[]): Ziggy['routes'] {
  const out: Ziggy['routes'] = {};
  for (const r of routes) {
    if (!r.name) continue;
    const entry = (out[r.name] ??= { uri: r.url.replace(/^\//, '').replace(/:(\w+)/g, '{$1}'), methods: [] });
    if (!entry.methods.includes(r.method)) entry.methods.push(r.method);
  }
  return out;
}

export const systemRoutes =
  (deps: { config: Config; routes: readonly RegisteredRoute[]; store: FileStore }): FastifyPluginAsyncZod =>
  async (app) => {
    const { config } = deps;
    let ziggy: Ziggy['routes'] | undefined;

    app.get(
      '/ziggy',
      {
        config: { access: 'public', name: 'ziggy' },
        schema: { tags: ['shell'], summary: 'Named routes', response: { 200: ziggyResponse } },
      },
      async (request) => {
        ziggy ??= namedRoutes(deps.routes);
        const url = config.publicUrl ?? `${request.protocol}://${request.host}`;
        const port = request.port ?? null;
        return { url, port, defaults: {}, routes: ziggy };
      },
    );

    app.get(
      '/api/config',
      {
        config: { access: 'public', name: 'config' },
        schema: {
          tags: ['shell'],
          summary: 'Company name, login domain, time zone and the corporate sign-in button',
          response: { 200: publicConfigResponse },
        },
      },
      async () => ({
        company_name: config.companyName,
        login_domain: config.loginDomain,
        time_zone: config.timeZone,
        oidc_label: config.oidc?.buttonLabel ?? null,
      }),
    );

    app.get(
      '/storage/json/social.links.json',
      {
        config: { access: 'public', name: 'social-links' },
        schema: { tags: ['shell'], summary: 'Footer social links', response: { 200: socialLinks } },
      },
      async () => {
        // The company's own links, where its files are (DATA_DIR/storage/json/ or the bucket).
        const custom = await deps.store.open('storage/json/social.links.json');
        const json = custom ? await text(await custom.stream()) : await readFile(DEFAULT_SOCIAL_LINKS, 'utf8');
        return socialLinks.parse(JSON.parse(json));
      },
    );
  };
