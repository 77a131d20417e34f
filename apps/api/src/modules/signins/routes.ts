import {
  errorResponse,
  SIGN_IN_SETTINGS_MESSAGES,
  signInSettingsRequest,
  signInSettingsResponse,
  signInsQuery,
  signInsResponse,
} from '@lms/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { SignIns } from './service.js';

/** The journal of sign-ins and the sign-in settings, under the school settings: admins only. */
export const signInRoutes =
  (signIns: SignIns): FastifyPluginAsyncZod =>
  async (app) => {
    const refusals = { 401: errorResponse, 403: errorResponse, 422: errorResponse };
    app.get(
      '/api/admin/sign-ins',
      {
        config: { access: 'settings.manage', name: 'admin.sign-ins' },
        schema: {
          tags: ['settings'],
          summary: 'Every sign-in, successful or not, newest first, one page at a time',
          querystring: signInsQuery,
          response: { 200: signInsResponse, ...refusals },
        },
      },
      async (request) => ({ result: { success: true as const }, ...(await signIns.page(request.query)) }),
    );
    app.get(
      '/api/admin/sign-in-settings',
      {
        config: { access: 'settings.manage', name: 'admin.sign-in-settings' },
        schema: {
          tags: ['settings'],
          summary: "The ways in the server is set up for, and 'Только вход через SSO'",
          response: { 200: signInSettingsResponse, ...refusals },
        },
      },
      async () => ({ result: { success: true as const }, data: await signIns.settings() }),
    );
    app.put(
      '/api/admin/sign-in-settings',
      {
        config: { access: 'settings.manage', name: 'admin.sign-in-settings.update' },
        schema: {
          tags: ['settings'],
          summary: "Turns 'Только вход через SSO' on or off",
          body: signInSettingsRequest,
          response: { 200: signInSettingsResponse, ...refusals },
        },
      },
      async (request) => {
        const user = await request.requireUser();
        const data = await signIns.setSsoOnly(user.id, request.body.sso_only);
        return { result: { success: true as const, message: SIGN_IN_SETTINGS_MESSAGES.saved }, data };
      },
    );
  };
