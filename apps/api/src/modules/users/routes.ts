import {
  adminUserDetailResponse,
  adminUserListResponse,
  adminUsersQuery,
  createUserRequest,
  createUserResponse,
  errorResponse,
  idParam,
  rolesResponse,
  successResponse,
  updateUserRequest,
  userCoursesChange,
  userCoursesResponse,
} from '@lms/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Config } from '../../config.js';
import { siteAddress } from '../../platform/security.js';
import { actorOf } from '../audit/service.js';
import { USER_MESSAGES, type UsersService } from './service.js';

const errors = { 401: errorResponse, 403: errorResponse, 404: errorResponse, 422: errorResponse };
const access = { access: 'settings.manage' } as const;

export const usersRoutes =
  (users: UsersService, config: Config): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/api/admin/users',
      {
        config: { ...access, name: 'admin.users' },
        schema: {
          tags: ['settings'],
          summary: 'Employees: all of them without parameters, or one page with `total`',
          querystring: adminUsersQuery,
          response: { 200: adminUserListResponse, ...errors },
        },
      },
      async (request) => {
        const q = request.query;
        const paged = Object.values(q).some((v) => v !== undefined);
        if (!paged) return { result: { success: true as const }, items: await users.list() };
        return { result: { success: true as const }, ...(await users.page(q)) };
      },
    );

    app.post(
      '/api/admin/users',
      {
        config: { ...access, name: 'admin.users.store' },
        schema: {
          tags: ['settings'],
          summary: 'Add an employee (password generated and mailed)',
          body: createUserRequest,
          response: { 201: createUserResponse, ...errors },
        },
      },
      async (request, reply) => {
        const { id, name } = await users.create(
          actorOf(await request.requireUser()),
          request.body,
          siteAddress(config, request),
        );
        return reply
          .code(201)
          .send({ result: { success: true as const, message: `Пользователь ${name} успешно добавлен` }, data: { id } });
      },
    );

    app.get(
      '/api/admin/users/:id',
      {
        config: { ...access, name: 'api.admin.user' },
        schema: { tags: ['settings'], params: idParam, response: { 200: adminUserDetailResponse, ...errors } },
      },
      async (request) => ({ result: { success: true as const, data: await users.detail(request.params.id) } }),
    );

    app.put(
      '/api/admin/users/:id',
      {
        config: { ...access, name: 'admin.users.update' },
        schema: {
          tags: ['settings'],
          params: idParam,
          body: updateUserRequest,
          response: { 200: successResponse, ...errors },
        },
      },
      async (request) => {
        const actor = actorOf(await request.requireUser());
        const { name } = await users.update(actor, request.params.id, request.body);
        return { result: { success: true as const, message: `Пользователь ${name} успешно обновлен` } };
      },
    );

    app.delete(
      '/api/admin/users/:id',
      {
        config: { ...access, name: 'admin.users.destroy' },
        schema: { tags: ['settings'], params: idParam, response: { 200: successResponse, ...errors } },
      },
      async (request) => {
        const actor = actorOf(await request.requireUser());
        const { name } = await users.delete(actor, request.params.id);
        return { result: { success: true as const, message: `Пользователь ${name} успешно удален` } };
      },
    );

    app.post(
      '/api/admin/users/:id/reset-password',
      {
        config: { ...access, name: 'admin.users.reset-password' },
        schema: { tags: ['settings'], params: idParam, response: { 200: successResponse, ...errors } },
      },
      async (request) => {
        await users.resetPassword(request.params.id, siteAddress(config, request));
        return { result: { success: true as const, message: USER_MESSAGES.passwordReset } };
      },
    );

    app.get(
      '/api/admin/users/:id/courses',
      {
        config: { ...access, name: 'admin.users.courses' },
        schema: { tags: ['settings'], params: idParam, response: { 200: userCoursesResponse, ...errors } },
      },
      async (request) => ({ result: { success: true as const, data: await users.courses(request.params.id) } }),
    );

    app.post(
      '/api/admin/user-courses/attach',
      {
        config: { ...access, name: 'admin.user-courses.attach' },
        schema: { tags: ['settings'], body: userCoursesChange, response: { 200: successResponse, ...errors } },
      },
      async (request) => {
        await users.attach(actorOf(await request.requireUser()), request.body.user_id, request.body.course_ids);
        return { result: { success: true as const } };
      },
    );

    app.post(
      '/api/admin/user-courses/detach',
      {
        config: { ...access, name: 'admin.user-courses.detach' },
        schema: { tags: ['settings'], body: userCoursesChange, response: { 200: successResponse, ...errors } },
      },
      async (request) => {
        await users.detach(actorOf(await request.requireUser()), request.body.user_id, request.body.course_ids);
        return { result: { success: true as const } };
      },
    );

    app.get(
      '/api/admin/roles',
      {
        config: { ...access, name: 'admin.roles' },
        schema: { tags: ['settings'], response: { 200: rolesResponse, ...errors } },
      },
      async () => ({ result: { success: true as const, items: await users.roles() } }),
    );
  };
