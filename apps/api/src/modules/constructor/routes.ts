import {
  CONSTRUCTOR_MESSAGES as M,
  constructorCourseResponse,
  courseParams,
  createLessonRequest,
  createLessonResponse,
  createModuleRequest,
  errorResponse,
  idParam,
  lessonParams,
  lessonResponse,
  moduleParams,
  moduleResponse,
  modulesResponse,
  publishCourseRequest,
  renameModuleRequest,
  saveContentsRequest,
  saveContentsResponse,
  sortItemsRequest,
  sortModulesRequest,
  successResponse,
  updateCourseRequest,
  updateCourseResponse,
  updateLessonRequest,
  updateLessonResponse,
} from '@lms/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { ConstructorService } from './service.js';

const errors = { 401: errorResponse, 403: errorResponse, 404: errorResponse, 413: errorResponse, 422: errorResponse };
const access = 'constructor.manage' as const;
const tags = ['constructor'];
const ok = true as const;

/** Course constructor calls of docs/product.md §Constructor (tests and questions are the test-authoring module's). */
export const constructorRoutes =
  (service: ConstructorService): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/api/courses/:courseId',
      {
        config: { access, name: 'api.courses.show' },
        schema: { tags, params: courseParams, response: { 200: constructorCourseResponse, ...errors } },
      },
      async (request) => ({ result: { success: ok, course: await service.course(request.params.courseId) } }),
    );

    app.put(
      '/api/courses/:courseId',
      {
        config: { access, name: 'api.courses.update' },
        schema: {
          tags,
          params: courseParams,
          body: updateCourseRequest,
          response: { 200: updateCourseResponse, ...errors },
        },
      },
      async (request) => {
        const { course, message } = await service.updateCourse(request.params.courseId, request.body);
        return { result: { success: ok, message, course } };
      },
    );

    app.delete(
      '/api/admin/courses/:courseId',
      {
        config: { access, name: 'api.admin.courses.destroy' },
        schema: { tags, params: courseParams, response: { 200: successResponse, ...errors } },
      },
      async (request) => {
        await service.deleteCourse(request.params.courseId);
        return { result: { success: ok, message: M.courseDeleted } };
      },
    );

    app.post(
      '/api/courses/:courseId/publish',
      {
        config: { access, name: 'api.courses.publish' },
        schema: {
          tags,
          params: courseParams,
          body: publishCourseRequest,
          response: { 200: successResponse, ...errors },
        },
      },
      async (request) => {
        await service.publishCourse(request.params.courseId, request.body.is_published);
        return { result: { success: ok, message: M.statusChanged } };
      },
    );

    app.get(
      '/api/courses/:courseId/modules',
      {
        config: { access, name: 'api.courses.modules' },
        schema: { tags, params: courseParams, response: { 200: modulesResponse, ...errors } },
      },
      async (request) => {
        const viewer = await request.requireUser();
        return { result: { success: ok, items: await service.modules(request.params.courseId, viewer.id) } };
      },
    );

    app.post(
      '/api/courses/modules',
      {
        config: { access, name: 'api.courses.modules.store' },
        schema: { tags, body: createModuleRequest, response: { 201: moduleResponse, ...errors } },
      },
      async (request, reply) => {
        const item = await service.createModule(request.body.course_id, request.body.name);
        return reply.code(201).send({ result: { success: ok, message: M.moduleCreated, item } });
      },
    );

    // Registered before ':moduleId' so that 'sort' is never read as a module id.
    app.put(
      '/api/courses/:courseId/modules/sort',
      {
        config: { access, name: 'api.courses.modules.sort' },
        schema: {
          tags,
          params: courseParams,
          body: sortModulesRequest,
          response: { 200: successResponse, ...errors },
        },
      },
      async (request) => {
        await service.sortModules(request.params.courseId, request.body.modules);
        return { result: { success: ok, message: M.modulesSorted } };
      },
    );

    app.put(
      '/api/courses/:courseId/modules/:moduleId',
      {
        config: { access, name: 'api.courses.modules.update' },
        schema: {
          tags,
          params: moduleParams,
          body: renameModuleRequest,
          response: { 200: successResponse, ...errors },
        },
      },
      async (request) => {
        await service.renameModule(request.params.courseId, request.params.moduleId, request.body.name);
        return { result: { success: ok, message: M.moduleRenamed } };
      },
    );

    app.delete(
      '/api/courses/:courseId/modules/:moduleId',
      {
        config: { access, name: 'api.courses.modules.destroy' },
        schema: { tags, params: moduleParams, response: { 200: successResponse, ...errors } },
      },
      async (request) => {
        await service.deleteModule(request.params.courseId, request.params.moduleId);
        return { result: { success: ok, message: M.moduleDeleted } };
      },
    );

    app.put(
      '/api/courses/:courseId/modules/:moduleId/items/sort',
      {
        config: { access, name: 'api.courses.modules.items.sort' },
        schema: {
          tags,
          params: moduleParams,
          body: sortItemsRequest,
          response: { 200: successResponse, ...errors },
        },
      },
      async (request) => {
        await service.sortItems(request.params.courseId, request.params.moduleId, request.body.items);
        return { result: { success: ok, message: M.itemsSorted } };
      },
    );

    app.post(
      '/api/courses/lessons',
      {
        config: { access, name: 'api.courses.lessons.store' },
        schema: { tags, body: createLessonRequest, response: { 201: createLessonResponse, ...errors } },
      },
      async (request, reply) => {
        const item = await service.createLesson(request.body.module_id, request.body.name, request.body.kind);
        return reply.code(201).send({ result: { success: ok, message: M.lessonCreated, item } });
      },
    );

    app.delete(
      '/api/courses/lessons/:id',
      {
        config: { access, name: 'api.courses.lessons.destroy' },
        schema: { tags, params: idParam, response: { 200: successResponse, ...errors } },
      },
      async (request) => {
        await service.deleteLesson(request.params.id);
        return { result: { success: ok, message: M.lessonDeleted } };
      },
    );

    app.get(
      '/api/courses/:courseId/lessons/:lessonId',
      {
        config: { access, name: 'api.courses.lessons.show' },
        schema: { tags, params: lessonParams, response: { 200: lessonResponse, ...errors } },
      },
      async (request) => ({
        result: { success: ok, lesson: await service.lesson(request.params.courseId, request.params.lessonId) },
      }),
    );

    app.put(
      '/api/courses/:courseId/lessons/:lessonId',
      {
        config: { access, name: 'api.courses.lessons.update' },
        schema: {
          tags,
          params: lessonParams,
          body: updateLessonRequest,
          response: { 200: updateLessonResponse, ...errors },
        },
      },
      async (request) => {
        const { item, message } = await service.updateLesson(
          request.params.courseId,
          request.params.lessonId,
          request.body,
        );
        return { result: { success: ok, message, item } };
      },
    );

    app.put(
      '/api/courses/:courseId/lessons/:lessonId/contents',
      {
        config: { access, name: 'api.courses.lessons.contents' },
        schema: {
          tags,
          params: lessonParams,
          body: saveContentsRequest,
          response: { 200: saveContentsResponse, ...errors },
        },
      },
      async (request) => {
        const contents = await service.saveContents(
          request.params.courseId,
          request.params.lessonId,
          request.body.contents,
        );
        return { result: { success: ok, message: M.contentsSaved, contents } };
      },
    );
  };
