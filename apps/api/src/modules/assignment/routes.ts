import {
  assignDepartmentsRequest,
  assignGroupsRequest,
  assignUsersRequest,
  assignedDepartmentParams,
  assignedGroupParams,
  assignedUserParams,
  assignmentCandidatesQuery,
  assignmentCandidatesResponse,
  assignmentChangeResponse,
  courseAssignmentResponse,
  courseParams,
  errorResponse,
} from '@lms/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { actorOf } from '../audit/service.js';
import type { AssignmentChange, AssignmentService } from './service.js';

const errors = { 401: errorResponse, 403: errorResponse, 404: errorResponse, 422: errorResponse };
/** Whoever runs a course assigns it: admins and authors, like the rest of the constructor. */
const access = 'constructor.manage' as const;
const tags = ['constructor'];
const changed = { 200: assignmentChangeResponse, ...errors };
const answer = ({ message, assignment }: AssignmentChange) => ({
  result: { success: true as const, message, assignment },
});

/** A course's 'Назначение' (docs/product.md §Course settings): its departments, groups and employees. */
export const assignmentRoutes =
  (service: AssignmentService): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/api/courses/:courseId/assignment',
      {
        config: { access, name: 'api.courses.assignment' },
        schema: {
          tags,
          summary: "The course's departments, groups and directly assigned employees, with counts",
          params: courseParams,
          response: { 200: courseAssignmentResponse, ...errors },
        },
      },
      async (request) => ({
        result: { success: true as const, assignment: await service.view(request.params.courseId) },
      }),
    );

    app.get(
      '/api/courses/:courseId/assignment/candidates',
      {
        config: { access, name: 'api.courses.assignment.candidates' },
        schema: {
          tags,
          summary: 'Live employees to assign the course to, by name or address (at most 20)',
          params: courseParams,
          querystring: assignmentCandidatesQuery,
          response: { 200: assignmentCandidatesResponse, ...errors },
        },
      },
      async (request) => ({
        result: {
          success: true as const,
          items: await service.candidates(request.params.courseId, request.query.search),
        },
      }),
    );

    app.post(
      '/api/courses/:courseId/assignment/departments',
      {
        config: { access, name: 'api.courses.assignment.departments.store' },
        schema: { tags, params: courseParams, body: assignDepartmentsRequest, response: changed },
      },
      async (request) => {
        const actor = actorOf(await request.requireUser());
        return answer(await service.addDepartments(actor, request.params.courseId, request.body.department_ids));
      },
    );

    app.delete(
      '/api/courses/:courseId/assignment/departments/:departmentId',
      {
        config: { access, name: 'api.courses.assignment.departments.destroy' },
        schema: { tags, params: assignedDepartmentParams, response: changed },
      },
      async (request) => {
        const actor = actorOf(await request.requireUser());
        const { courseId, departmentId } = request.params;
        return answer(await service.removeDepartment(actor, courseId, departmentId));
      },
    );

    app.post(
      '/api/courses/:courseId/assignment/groups',
      {
        config: { access, name: 'api.courses.assignment.groups.store' },
        schema: { tags, params: courseParams, body: assignGroupsRequest, response: changed },
      },
      async (request) => {
        const actor = actorOf(await request.requireUser());
        return answer(await service.addGroups(actor, request.params.courseId, request.body.group_ids));
      },
    );

    app.delete(
      '/api/courses/:courseId/assignment/groups/:groupId',
      {
        config: { access, name: 'api.courses.assignment.groups.destroy' },
        schema: { tags, params: assignedGroupParams, response: changed },
      },
      async (request) => {
        const actor = actorOf(await request.requireUser());
        const { courseId, groupId } = request.params;
        return answer(await service.removeGroup(actor, courseId, groupId));
      },
    );

    app.post(
      '/api/courses/:courseId/assignment/users',
      {
        config: { access, name: 'api.courses.assignment.users.store' },
        schema: { tags, params: courseParams, body: assignUsersRequest, response: changed },
      },
      async (request) => {
        const actor = actorOf(await request.requireUser());
        return answer(await service.addUsers(actor, request.params.courseId, request.body.user_ids));
      },
    );

    app.delete(
      '/api/courses/:courseId/assignment/users/:userId',
      {
        config: { access, name: 'api.courses.assignment.users.destroy' },
        schema: { tags, params: assignedUserParams, response: changed },
      },
      async (request) => {
        const actor = actorOf(await request.requireUser());
        const { courseId, userId } = request.params;
        return answer(await service.removeUser(actor, courseId, userId));
      },
    );
  };
