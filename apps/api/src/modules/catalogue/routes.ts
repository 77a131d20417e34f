import {
  catalogueResponse,
  categoriesBulkRequest,
  categoryNameRequest,
  categoryResponse,
  createCourseRequest,
  createCourseResponse,
  errorResponse,
  idParam,
  successResponse,
} from '@lms/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { CATALOGUE_MESSAGES, type CatalogueService } from './service.js';

const errors = { 401: errorResponse, 403: errorResponse, 404: errorResponse, 422: errorResponse };

export const catalogueRoutes =
  (catalogue: CatalogueService): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/api/courses',
      {
        config: { access: 'catalogue.manage', name: 'api.courses' },
        schema: {
          tags: ['catalogue'],
          summary: 'Categories with their courses',
          response: { 200: catalogueResponse, ...errors },
        },
      },
      async (request) => {
        const items = await catalogue.catalogue((await request.requireUser()).id);
        return { result: { success: true as const, items } };
      },
    );

    app.post(
      '/api/courses',
      {
        config: {
          access: 'catalogue.manage',
          name: 'api.courses.store',
          forbiddenMessage: CATALOGUE_MESSAGES.noRightsCourse,
        },
        schema: { tags: ['catalogue'], body: createCourseRequest, response: { 201: createCourseResponse, ...errors } },
      },
      async (request, reply) => {
        const item = await catalogue.createCourse(request.body.name, request.body.category_id);
        return reply
          .code(201)
          .send({ result: { success: true as const, message: CATALOGUE_MESSAGES.courseCreated, item } });
      },
    );

    app.post(
      '/api/courses/categories',
      {
        config: {
          access: 'catalogue.manage',
          name: 'api.courses.categories.store',
          forbiddenMessage: CATALOGUE_MESSAGES.noRightsCategory,
        },
        schema: { tags: ['catalogue'], body: categoryNameRequest, response: { 201: categoryResponse, ...errors } },
      },
      async (request, reply) => {
        const item = await catalogue.createCategory(request.body.name);
        return reply
          .code(201)
          .send({ result: { success: true as const, message: CATALOGUE_MESSAGES.categoryCreated, item } });
      },
    );

    app.post(
      '/api/courses/categories/update',
      {
        config: { access: 'catalogue.manage', name: 'api.courses.categories.update-all' },
        schema: { tags: ['catalogue'], body: categoriesBulkRequest, response: { 200: successResponse, ...errors } },
      },
      async (request) => {
        await catalogue.updateCategories(request.body.categories);
        return { result: { success: true as const, message: CATALOGUE_MESSAGES.saved } };
      },
    );

    app.put(
      '/api/courses/categories/:id',
      {
        config: { access: 'catalogue.manage', name: 'api.courses.categories.update' },
        schema: {
          tags: ['catalogue'],
          params: idParam,
          body: categoryNameRequest,
          response: { 200: categoryResponse, ...errors },
        },
      },
      async (request) => {
        const item = await catalogue.renameCategory(request.params.id, request.body.name);
        return { result: { success: true as const, message: CATALOGUE_MESSAGES.categoryRenamed, item } };
      },
    );

    app.delete(
      '/api/courses/categories/:id',
      {
        config: { access: 'catalogue.manage', name: 'api.courses.categories.destroy' },
        schema: { tags: ['catalogue'], params: idParam, response: { 200: successResponse, ...errors } },
      },
      async (request) => {
        await catalogue.deleteCategory(request.params.id);
        return { result: { success: true as const, message: CATALOGUE_MESSAGES.categoryDeleted } };
      },
    );
  };
