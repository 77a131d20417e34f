import type { FastifyPluginAsync } from 'fastify';
import { notFound } from '../../platform/errors.js';
import type { FileAccess } from './access.js';
import type { FilesRepository } from './repository.js';
import type { Storage } from './storage.js';

/** RFC 6266 attachment header with the original (possibly Cyrillic) file name. */
export function attachment(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

const FILE_NOT_FOUND = 'Файл не найден';

export const storageRoutes =
  (deps: { storage: Storage; files: FilesRepository; access: FileAccess }): FastifyPluginAsync =>
  async (app) => {
    app.get(
      '/storage/*',
      { config: { access: 'authenticated', name: 'storage' }, schema: { hide: true } },
      async (request, reply) => {
        // Already decoded by the router; decoding again would turn '%25' into a broken escape.
        const relative = ((request.params as { '*': string })['*'] ?? '').replace(/^\/+/, '');
        // A file the user may not see answers as if it did not exist (docs/rules.md §Errors).
        const user = await request.requireUser();
        if (!(await deps.access.mayRead(user, relative))) throw notFound(FILE_NOT_FOUND);
        const file = await deps.storage.open(relative);
        if (!file) throw notFound(FILE_NOT_FOUND);
        const name = file.inline
          ? null
          : ((await deps.files.originalName(relative)) ?? relative.split('/').pop() ?? 'file');
        // Opened last before the headers: a store that fails now answers its error without this
        // file's name (an attachment would save the error under it), and nothing after it can fail.
        const body = await file.stream();
        reply
          .header('x-content-type-options', 'nosniff')
          .header('content-security-policy', 'sandbox')
          // Served per session: no shared or browser cache may keep it for the next user of the machine.
          .header('cache-control', 'private, no-store')
          .header('content-length', file.size)
          .type(file.mime);
        if (name !== null) reply.header('content-disposition', attachment(name));
        return reply.send(body);
      },
    );
  };
