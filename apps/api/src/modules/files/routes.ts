import type { FastifyPluginAsync } from 'fastify';
import { notFound } from '../../platform/errors.js';
import type { FilesRepository } from './repository.js';
import type { Storage } from './storage.js';

/** RFC 6266 attachment header with the original (possibly Cyrillic) file name. */
export function attachment(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

export const storageRoutes =
  (deps: { storage: Storage; files: FilesRepository }): FastifyPluginAsync =>
  async (app) => {
    app.get(
      '/storage/*',
      { config: { access: 'authenticated', name: 'storage' }, schema: { hide: true } },
      async (request, reply) => {
        // Already decoded by the router; decoding again would turn '%25' into a broken escape.
        const relative = (request.params as { '*': string })['*'] ?? '';
        const file = await deps.storage.open(relative);
        if (!file) throw notFound('Файл не найден');
        reply
          .header('x-content-type-options', 'nosniff')
          .header('content-security-policy', 'sandbox')
          .header('cache-control', 'private, max-age=3600')
          .header('content-length', file.size)
          .type(file.mime);
        if (!file.inline) {
          const name = (await deps.files.originalName(relative)) ?? relative.split('/').pop() ?? 'file';
          reply.header('content-disposition', attachment(name));
        }
        return reply.send(file.stream());
      },
    );
  };
