import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';

/** The content security policy of the web client: its own code, the video hosts' frames, nothing else. */
export const HELMET_OPTIONS: Readonly<HelmetOptions> = {
  contentSecurityPolicy: {
    directives: {
      defaultSrc: ["'self'"],
      imgSrc: ["'self'", 'data:', 'blob:'],
      styleSrc: ["'self'", "'unsafe-inline'"],
      fontSrc: ["'self'", 'data:'],
      scriptSrc: ["'self'"],
      // 'self': SCORM packages play in a sandboxed frame of the platform's own address (CONTENT_URL
      // adds its origin: installSecurityHeaders).
      frameSrc: ["'self'", 'https://www.youtube.com', 'https://rutube.ru', 'https://vk.com', 'https://vkvideo.ru'],
      connectSrc: ["'self'"],
      objectSrc: ["'none'"],
      baseUri: ["'self'"],
      formAction: ["'self'"],
      frameAncestors: ["'self'"],
      upgradeInsecureRequests: null,
    },
  },
  crossOriginEmbedderPolicy: false,
};

/** The headers helmet sets, found once by running it against a recording response. */
export function securityHeaders(options: Readonly<HelmetOptions> = HELMET_OPTIONS): Record<string, string> {
  const headers: Record<string, string> = {};
  const recorder = {
    setHeader: (name: string, value: string | number | readonly string[]) => {
      headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
    },
    removeHeader: (name: string) => {
      delete headers[name.toLowerCase()];
    },
  };
  let failure: unknown;
  helmet(options)({} as IncomingMessage, recorder as unknown as ServerResponse, (error?: unknown) => {
    failure = error;
  });
  if (failure) throw failure instanceof Error ? failure : new Error(String(failure));
  return headers;
}

/**
 * Security headers on every answer. They do not depend on the request, so they are computed at
 * start-up: @fastify/helmet rebuilt helmet's policy on every request (about 5 % of the CPU).
 */
export function installSecurityHeaders(app: FastifyInstance, contentOrigin?: string): void {
  const headers = securityHeaders(contentOrigin ? withFrameSource(contentOrigin) : HELMET_OPTIONS);
  app.addHook('onRequest', async (_request, reply) => {
    reply.headers(headers);
  });
}

/** The policy with one more origin the web client may frame (CONTENT_URL: SCORM packages). */
function withFrameSource(origin: string): HelmetOptions {
  const csp = HELMET_OPTIONS.contentSecurityPolicy;
  if (typeof csp !== 'object' || !csp.directives) return HELMET_OPTIONS;
  const frames = csp.directives.frameSrc;
  return {
    ...HELMET_OPTIONS,
    contentSecurityPolicy: {
      ...csp,
      directives: { ...csp.directives, frameSrc: [...(Array.isArray(frames) ? frames : []), origin] },
    },
  };
}
