import { menuResponse } from '@lms/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { menuFor } from './service.js';

export const menuRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/menu',
    {
      config: { access: 'authenticated', name: 'menu' },
      schema: { tags: ['shell'], summary: 'Side menu of the signed-in user', response: { 200: menuResponse } },
    },
    async (request) => ({ items: menuFor((await request.requireUser()).role) }),
  );
};
