import { errorResponse, pinRequest, recoveryRequest, successResponse } from '@lms/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Config } from '../../config.js';
import { siteAddress } from '../../platform/security.js';
import { RECOVERY_MESSAGES, type RecoveryService } from './service.js';

const responses = { 200: successResponse, 422: errorResponse, 429: errorResponse };

export const recoveryRoutes =
  (recovery: RecoveryService, config: Config): FastifyPluginAsyncZod =>
  async (app) => {
    app.post(
      '/api/password/recovery-request',
      {
        config: { access: 'public', name: 'password.recovery-request' },
        schema: { tags: ['recovery'], summary: 'Mail a recovery code', body: recoveryRequest, response: responses },
      },
      async (request) => {
        await recovery.request(request.body.email, request.ip.slice(0, 64));
        return { result: { success: true as const, message: RECOVERY_MESSAGES.requested } };
      },
    );

    app.post(
      '/api/password/check-pin',
      {
        config: { access: 'public', name: 'password.check-pin' },
        schema: { tags: ['recovery'], summary: 'Check a recovery code', body: pinRequest, response: responses },
      },
      async (request) => {
        await recovery.check(request.body.email, request.body.pin_code, request.ip.slice(0, 64));
        return { result: { success: true as const, message: RECOVERY_MESSAGES.codeOk } };
      },
    );

    app.post(
      '/api/password/reset-by-pin',
      {
        config: { access: 'public', name: 'password.reset-by-pin' },
        schema: { tags: ['recovery'], summary: 'Reset the password by code', body: pinRequest, response: responses },
      },
      async (request) => {
        const { email, pin_code } = request.body;
        await recovery.resetByPin(email, pin_code, request.ip.slice(0, 64), siteAddress(config, request));
        return { result: { success: true as const, message: RECOVERY_MESSAGES.reset } };
      },
    );
  };
