import { existsSync } from 'node:fs';
import { join, sep } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';

/** Vite's hashed output: a file's name changes whenever its content does, so browsers keep it a year. */
export const CACHE_IMMUTABLE = 'public, max-age=31536000, immutable';
/** index.html and the unhashed files of `public/`: always revalidated (ETag), so a deploy shows at once. */
export const CACHE_REVALIDATE = 'no-cache';

const SOURCE_MAP = /\.map$/i;

export interface WebClient {
  /** Answers with the client's entry page (the SPA fallback of any unknown page address). */
  sendIndex(reply: FastifyReply): FastifyReply;
}

/**
 * Serves the built web client from `webDist` (apps/web/dist): the precompressed `.br`/`.gz` copy that
 * the build writes next to each file when the browser accepts it (`Content-Encoding`, `Vary:
 * Accept-Encoding`), `immutable` caching for `/assets/*`, `no-cache` for everything else, never a
 * source map. `GET /` is the entry page. Returns null when there is no build (API-only runs and tests).
 */
export async function registerWebClient(app: FastifyInstance, webDist: string): Promise<WebClient | null> {
  if (!existsSync(join(webDist, 'index.html'))) return null;
  const assets = join(webDist, 'assets') + sep;
  await app.register(fastifyStatic, {
    root: webDist,
    wildcard: true,
    index: false,
    preCompressed: true,
    cacheControl: false,
    // Source maps hold the whole client source: built for error reports, never published (the
    // build moves them out of dist, this refuses one left there).
    allowedPath: (pathName) => !SOURCE_MAP.test(pathName),
    // `path` is the file sent: with a compressed copy it ends in .br or .gz.
    setHeaders: (reply, path) => {
      reply.header('cache-control', path.startsWith(assets) ? CACHE_IMMUTABLE : CACHE_REVALIDATE);
    },
  });
  const sendIndex = (reply: FastifyReply): FastifyReply => reply.sendFile('index.html');
  // '/' itself is a folder to the static plugin.
  app.get('/', { config: { access: 'public' }, schema: { hide: true } }, (_request, reply) => sendIndex(reply));
  return { sendIndex };
}

/**
 * Whether an unknown GET address gets the entry page: not the API's own prefixes, and not a missing
 * build file (a stale chunk after a deploy must be a 404, not HTML served as JavaScript) or a source map.
 */
export function isClientPage(url: string): boolean {
  const path = url.split('?')[0] ?? '';
  return !/^\/(api|storage|docs|ziggy|assets)(\/|$)/.test(path) && !SOURCE_MAP.test(path);
}
