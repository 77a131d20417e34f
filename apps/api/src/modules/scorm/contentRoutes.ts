import { text } from 'node:stream/consumers';
import { SCORM_LIMITS } from '@lms/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { MESSAGES } from '../../platform/errors.js';
import { injectRuntime } from './runtime.js';
import type { ScormService } from './service.js';
import { sendStored } from './sendStored.js';

/**
 * A package's files, its runtime and its commits (docs/decisions.md §SCORM content). Every address
 * holds the launch's signed capability, so nothing here reads the session. The answers run in a
 * sandbox (the CSP `sandbox` directive: even a file opened in a tab of its own gets an opaque origin,
 * unless it is on CONTENT_URL's origin of its own), may be embedded and read from any origin (the
 * frame's origin is 'null'), and are cached by no one but the browser.
 */

export const CONTENT_PREFIX = '/scorm-content/';
/** A launch document larger than this is sent as it is, without the runtime (none is that large). */
const LAUNCH_DOCUMENT_BYTES = 8 * 1024 * 1024;

const tokenParams = z.object({ token: z.string().max(200) });

function contentHeaders(reply: FastifyReply, sandbox: string): void {
  reply.header('content-security-policy', `sandbox ${sandbox}`);
  reply.header('cross-origin-resource-policy', 'cross-origin');
  reply.header('access-control-allow-origin', '*');
  reply.removeHeader('x-frame-options');
  reply.removeHeader('cross-origin-opener-policy');
}

/**
 * The part of the address after `/pkg/`, still encoded (decoded once here; the store refuses `..`),
 * or null when the address is not spelt as the launch gave it: the router decodes escapes before it
 * matches (`/%70kg/`), and a cut at the length of the plain prefix would name another file.
 */
function packagePath(request: FastifyRequest, token: string): string | null {
  const url = request.raw.url ?? '';
  const prefix = `${CONTENT_PREFIX}${token}/pkg/`;
  if (!url.startsWith(prefix)) return null;
  const end = url.search(/[?#]/);
  return url.slice(prefix.length - 1, end < 0 ? undefined : end);
}

const notFound = (reply: FastifyReply) =>
  reply.code(404).send({ result: { success: false as const, message: MESSAGES.notFound } });

export const scormContentRoutes =
  (scorm: ScormService): FastifyPluginAsyncZod =>
  async (app) => {
    const access = 'public' as const;

    app.get(
      `${CONTENT_PREFIX}:token/lms/runtime.js`,
      { config: { access, capability: true, name: 'scorm.runtime' }, schema: { hide: true, params: tokenParams } },
      async (request, reply) => {
        const script = await scorm.runtime(request.params.token);
        contentHeaders(reply, scorm.sandbox);
        return reply.type('text/javascript; charset=utf-8').send(script);
      },
    );

    app.post(
      `${CONTENT_PREFIX}:token/lms/commit`,
      {
        config: { access, capability: true, name: 'scorm.commit' },
        bodyLimit: SCORM_LIMITS.commitBytes,
        schema: { hide: true, params: tokenParams },
      },
      async (request, reply) => {
        contentHeaders(reply, scorm.sandbox);
        let body: unknown;
        try {
          body = typeof request.body === 'string' ? JSON.parse(request.body) : request.body;
        } catch {
          body = undefined;
        }
        const stored = await scorm.commit(request.params.token, body);
        // The answer the runtime expects (scorm-again): a refused body is a failed commit, not an error page.
        return reply.send(stored ? { result: true, errorCode: 0 } : { result: false, errorCode: 101 });
      },
    );

    app.get(
      `${CONTENT_PREFIX}:token/pkg/*`,
      {
        config: { access, capability: true, name: 'scorm.file' },
        schema: { hide: true, params: tokenParams.extend({ '*': z.string() }) },
      },
      async (request, reply) => {
        const { token } = request.params;
        const encoded = packagePath(request, token);
        if (encoded === null) return notFound(reply);
        let decoded: string;
        try {
          decoded = decodeURIComponent(encoded);
        } catch {
          return notFound(reply);
        }
        const target = await scorm.content(token, decoded);
        contentHeaders(reply, scorm.sandbox);
        const file = await scorm.open(target.key);
        if (!file) return notFound(reply);
        if (target.launchDocument && file.size <= LAUNCH_DOCUMENT_BYTES) {
          const html = injectRuntime(await text(await file.stream()), `${CONTENT_PREFIX}${token}/lms/runtime.js`);
          return reply.type('text/html; charset=utf-8').send(html);
        }
        // A capability address: the browser may keep it, no shared cache may.
        reply.header('cache-control', 'private, max-age=3600');
        return sendStored(request, reply, file, decoded);
      },
    );
  };

/**
 * With CONTENT_URL, its host serves package content only and the platform's host never serves it:
 * a cookie the browser sends to both (the same name on another port) reaches no API call from a
 * package, and a package's file never runs on the platform's origin.
 */
export function separateContentHost(app: FastifyInstance, contentOrigin: string | undefined): void {
  if (!contentOrigin) return;
  const contentHost = new URL(contentOrigin).host.toLowerCase();
  app.addHook('onRequest', async (request, reply) => {
    const onContentHost = request.host.toLowerCase() === contentHost;
    // By the route matched, not the address as sent: the router decodes escapes (`/%73corm-content/`).
    const contentPath = request.routeOptions.url?.startsWith(CONTENT_PREFIX) === true;
    if (onContentHost !== contentPath) {
      return reply.code(404).send({ result: { success: false, message: MESSAGES.notFound } });
    }
  });
}
