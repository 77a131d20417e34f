import {
  PROFILE_MESSAGES as P,
  changePasswordRequest,
  errorResponse,
  profilePreferencesRequest,
  profilePreferencesResponse,
  profileResponse,
  setPasswordRequest,
  successResponse,
} from '@lms/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { unauthorized } from '../../platform/errors.js';
import type { ProfileService } from './service.js';

const tags = ['profile'];
/** The password calls' answers: 429 when the tries run out or the process hashes at its limit. */
const passwordResponses = { 200: successResponse, 401: errorResponse, 422: errorResponse, 429: errorResponse };

/** The profile page's calls (docs/product.md §Profile). */
export const profileRoutes =
  (profile: ProfileService): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/api/profile',
      {
        config: { access: 'authenticated', name: 'api.profile' },
        schema: { tags, response: { 200: profileResponse, 401: errorResponse, 404: errorResponse } },
      },
      async (request) => {
        const user = await request.requireUser();
        return { result: { success: true as const }, data: await profile.profile(user.id) };
      },
    );

    app.post(
      '/api/profile/change-password',
      {
        config: { access: 'authenticated', name: 'api.profile.change-password' },
        schema: {
          tags,
          body: changePasswordRequest,
          response: passwordResponses,
        },
      },
      async (request) => {
        const session = await request.currentSession();
        if (!session) throw unauthorized();
        await profile.changePassword(session.user, session.sessionId, request.body);
        return { result: { success: true as const, message: P.changed } };
      },
    );

    app.post(
      '/api/profile/set-password',
      {
        // The one call open while the password is one an administrator mailed (security.ts).
        config: { access: 'authenticated', name: 'api.profile.set-password', beforeOwnPassword: true },
        schema: {
          tags,
          summary: 'The own password instead of one an administrator mailed (check-auth: must_change_password)',
          body: setPasswordRequest,
          response: passwordResponses,
        },
      },
      async (request) => {
        const session = await request.currentSession();
        if (!session) throw unauthorized();
        await profile.setOwnPassword(session.user, session.sessionId, request.body);
        return { result: { success: true as const, message: P.changed } };
      },
    );

    app.put(
      '/api/profile/preferences',
      {
        config: { access: 'authenticated', name: 'api.profile.preferences' },
        schema: {
          tags,
          summary: "The user's own mail preferences: deadline reminder mails on or off",
          body: profilePreferencesRequest,
          response: { 200: profilePreferencesResponse, 401: errorResponse, 404: errorResponse, 422: errorResponse },
        },
      },
      async (request) => {
        const user = await request.requireUser();
        const data = await profile.setPreferences(user.id, request.body);
        return { result: { success: true as const, message: P.preferencesSaved }, data };
      },
    );
  };
