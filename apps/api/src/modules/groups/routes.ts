import {
  courseOptionsResponse,
  errorResponse,
  idParam,
  studyGroupRequest,
  studyGroupResponse,
  studyGroupsResponse,
} from '@lms/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { actorOf } from '../audit/service.js';
import { GROUP_MESSAGES, type GroupsService } from './service.js';

const errors = { 401: errorResponse, 403: errorResponse, 404: errorResponse, 422: errorResponse };

export const groupsRoutes =
  (groups: GroupsService): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/api/study-groups',
      {
        config: { access: 'settings.manage', name: 'study-groups' },
        schema: {
          tags: ['settings'],
          summary: 'Study groups with members',
          response: { 200: studyGroupsResponse, ...errors },
        },
      },
      async () => ({ result: { success: true as const, items: await groups.list() } }),
    );

    app.post(
      '/api/study-groups',
      {
        config: { access: 'settings.manage', name: 'study-groups.store' },
        schema: { tags: ['settings'], body: studyGroupRequest, response: { 201: studyGroupResponse, ...errors } },
      },
      async (request, reply) => {
        const item = await groups.create(actorOf(await request.requireUser()), request.body);
        return reply.code(201).send({ result: { success: true as const, message: GROUP_MESSAGES.added, item } });
      },
    );

    app.put(
      '/api/study-groups/:id',
      {
        config: { access: 'settings.manage', name: 'study-groups.update' },
        schema: {
          tags: ['settings'],
          params: idParam,
          body: studyGroupRequest,
          response: { 200: studyGroupResponse, ...errors },
        },
      },
      async (request) => {
        const item = await groups.update(actorOf(await request.requireUser()), request.params.id, request.body);
        return { result: { success: true as const, message: GROUP_MESSAGES.updated, item } };
      },
    );

    app.delete(
      '/api/study-groups/:id',
      {
        config: { access: 'settings.manage', name: 'study-groups.destroy' },
        schema: { tags: ['settings'], params: idParam, response: { 204: z.null(), ...errors } },
      },
      async (request, reply) => {
        await groups.delete(actorOf(await request.requireUser()), request.params.id);
        return reply.code(204).send(null);
      },
    );

    app.get(
      '/api/study-groups/:id/courses',
      {
        config: { access: 'settings.manage', name: 'study-groups.courses' },
        schema: { tags: ['settings'], params: idParam, response: { 200: courseOptionsResponse, ...errors } },
      },
      async (request) => ({ result: { success: true as const, items: await groups.courseOptions(request.params.id) } }),
    );
  };
