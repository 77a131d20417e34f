import {
  courseOptionsResponse,
  departmentRequest,
  departmentResponse,
  departmentsResponse,
  errorResponse,
  idParam,
  successResponse,
} from '@lms/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { actorOf } from '../audit/service.js';
import { DEPARTMENT_MESSAGES, type DepartmentsService } from './service.js';

const errors = { 401: errorResponse, 403: errorResponse, 404: errorResponse, 422: errorResponse };

export const departmentsRoutes =
  (departments: DepartmentsService): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/api/admin/departments',
      {
        config: { access: 'settings.manage', name: 'admin.departments' },
        schema: {
          tags: ['settings'],
          summary: 'Departments by sort order',
          response: { 200: departmentsResponse, ...errors },
        },
      },
      async () => ({ result: { success: true as const, items: await departments.list() } }),
    );

    app.post(
      '/api/admin/departments',
      {
        config: { access: 'settings.manage', name: 'admin.departments.store' },
        schema: { tags: ['settings'], body: departmentRequest, response: { 201: departmentResponse, ...errors } },
      },
      async (request, reply) => {
        const item = await departments.create(actorOf(await request.requireUser()), request.body);
        return reply.code(201).send({ result: { success: true as const, message: DEPARTMENT_MESSAGES.added, item } });
      },
    );

    app.put(
      '/api/admin/departments/:id',
      {
        config: { access: 'settings.manage', name: 'admin.departments.update' },
        schema: {
          tags: ['settings'],
          params: idParam,
          body: departmentRequest,
          response: { 200: departmentResponse, ...errors },
        },
      },
      async (request) => {
        const item = await departments.update(actorOf(await request.requireUser()), request.params.id, request.body);
        return { result: { success: true as const, message: DEPARTMENT_MESSAGES.updated, item } };
      },
    );

    app.delete(
      '/api/admin/departments/:id',
      {
        config: { access: 'settings.manage', name: 'admin.departments.destroy' },
        schema: { tags: ['settings'], params: idParam, response: { 200: successResponse, ...errors } },
      },
      async (request) => {
        await departments.delete(actorOf(await request.requireUser()), request.params.id);
        return { result: { success: true as const, message: DEPARTMENT_MESSAGES.deleted } };
      },
    );

    app.get(
      '/api/admin/departments/:id/courses',
      {
        config: { access: 'settings.manage', name: 'admin.departments.courses' },
        schema: { tags: ['settings'], params: idParam, response: { 200: courseOptionsResponse, ...errors } },
      },
      async (request) => ({
        result: { success: true as const, items: await departments.courseOptions(request.params.id) },
      }),
    );
  };
